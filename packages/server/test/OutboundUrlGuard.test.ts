import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { ConfigProvider, Effect, Either, Logger } from "effect"
import * as Dns from "node:dns/promises"
import {
  checkForeignUrl,
  checkOutboundUrl,
  classifyAddress,
  outboundAllowlistConfig,
  parseOutboundAllowlist
} from "../src/platform/outboundHttp/OutboundUrlGuard.js"
import { makeOutboundVerdicts, VerdictKey } from "../src/platform/outboundHttp/OutboundVerdicts.js"

// Real lookups by default; single tests substitute answers for names that do not exist.
vi.mock("node:dns/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:dns/promises")>()
  return { ...actual, lookup: vi.fn(actual.lookup) }
})

const refusal = (url: string, allowlist: ReadonlyArray<string> = []) => Effect.flip(checkOutboundUrl(url, allowlist))

/** A refusal with the lines it wrote to the server log. */
const refusalLogged = (url: string) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const capture = Logger.make(({ message }) => {
      lines.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
    })
    const error = yield* refusal(url).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
    return { error, log: lines.join("\n") }
  })

describe("OutboundUrlGuard", () => {
  describe("refuses each special-purpose address class", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["http://127.0.0.1/", "loopback", "127.0.0.1"],
      ["http://127.8.9.10:8080/mcp", "loopback", "127.8.9.10"],
      ["http://127.1/", "loopback", "127.0.0.1"],
      ["http://2130706433/", "loopback", "127.0.0.1"],
      ["http://0x7f.1/", "loopback", "127.0.0.1"],
      ["http://[::1]/", "loopback", "::1"],
      ["http://[::ffff:127.0.0.1]/", "loopback", "::ffff:7f00:1"],
      ["http://[0:0:0:0:0:ffff:a00:1]/", "private", "::ffff:a00:1"],
      ["http://[64:ff9b::169.254.169.254]/", "link-local", "64:ff9b::a9fe:a9fe"],
      ["http://[2002:7f00:1::]/", "loopback", "2002:7f00:1::"],
      ["http://10.1.2.3/", "private", "10.1.2.3"],
      ["http://172.16.0.1/", "private", "172.16.0.1"],
      ["http://172.31.255.255/", "private", "172.31.255.255"],
      ["http://192.168.1.1/", "private", "192.168.1.1"],
      ["http://[fd00::1]/", "private", "fd00::1"],
      ["http://[fc00::1]/", "private", "fc00::1"],
      ["http://169.254.169.254/latest/meta-data/", "link-local", "169.254.169.254"],
      ["http://169.254.1.1/", "link-local", "169.254.1.1"],
      ["http://[fe80::1]/", "link-local", "fe80::1"],
      ["http://0.0.0.0/", "unspecified", "0.0.0.0"],
      ["http://0/", "unspecified", "0.0.0.0"],
      ["http://[::]/", "unspecified", "::"],
      ["http://100.64.0.1/", "carrier-grade NAT", "100.64.0.1"],
      ["http://100.127.255.254/", "carrier-grade NAT", "100.127.255.254"],
      ["http://224.0.0.1/", "multicast", "224.0.0.1"],
      ["http://239.255.255.250/", "multicast", "239.255.255.250"],
      ["http://[ff02::1]/", "multicast", "ff02::1"],
      ["http://240.0.0.1/", "reserved", "240.0.0.1"],
      ["http://255.255.255.255/", "reserved", "255.255.255.255"],
      ["http://192.0.2.10/", "reserved", "192.0.2.10"],
      ["http://198.18.0.1/", "reserved", "198.18.0.1"],
      ["http://192.0.0.192/", "reserved", "192.0.0.192"],
      ["http://[2001:db8::1]/", "reserved", "2001:db8::1"],
      ["http://[::7f00:1]/", "reserved", "::7f00:1"],
      ["http://[100::1]/", "reserved", "100::1"]
    ]
    for (const [url, addressClass, address] of cases) {
      it.effect(`${url} is ${addressClass}`, () =>
        Effect.gen(function*() {
          const error = yield* refusal(url)
          expect(error._tag).toBe("OutboundUrlRefused")
          expect(error.reason).toBe("address")
          expect(error.addressClass).toBe(addressClass)
          expect(error.address).toBe(address)
          expect(error.message).toContain(addressClass)
          expect(error.message).toContain("which this server does not call")
          // only where an operator plausibly runs a service does the caller learn how to allow it
          const allowable = ["loopback", "private", "carrier-grade NAT"].includes(addressClass)
          const host = new URL(url).hostname.replace(/^\[|\]$/g, "")
          if (allowable) expect(error.message).toContain(`set SWITCHYARD_OUTBOUND_ALLOWLIST=${host} on the server`)
          else expect(error.message).not.toContain("SWITCHYARD_OUTBOUND_ALLOWLIST")
          // a link from provider data is never allowed: its refusal names no setting
          const foreign = yield* Effect.flip(checkForeignUrl(url))
          expect(foreign.addressClass).toBe(addressClass)
          expect(foreign.message).not.toContain("SWITCHYARD_OUTBOUND_ALLOWLIST")
        }))
    }
  })

  it.effect("tells the caller the address is not called and the setting that allows it, the server log every form", () =>
    Effect.gen(function*() {
      const metadata = yield* refusal("http://169.254.169.254/latest/meta-data/")
      expect(metadata.message).toContain("cloud metadata")
      expect(metadata.message).not.toContain("SWITCHYARD_OUTBOUND_ALLOWLIST")
      expect((yield* refusal("http://[::]/")).message).toContain("refused to call [::]: it is an unspecified address,")
      const loopback = yield* refusalLogged("http://127.0.0.1:9000/mcp")
      expect(loopback.error.message).toBe(
        "refused to call 127.0.0.1: it is a loopback address, which this server does not call; to allow it, " +
          "set SWITCHYARD_OUTBOUND_ALLOWLIST=127.0.0.1 on the server (added to any entries it has, comma-separated) and restart it"
      )
      // what the message says to add does allow the call
      expect((yield* checkOutboundUrl("http://127.0.0.1:9000/mcp", ["127.0.0.1"])).port).toBe("9000")
      expect(loopback.log).toBe(
        "refused an outbound call to 127.0.0.1: it is a loopback address. If the operator intends it, add \"127.0.0.1\", " +
          "\"127.0.0.1:9000\" or a CIDR such as \"127.0.0.1/32\" to SWITCHYARD_OUTBOUND_ALLOWLIST (comma-separated " +
          "hosts, host:port or CIDRs); links taken from provider data only ever reach public addresses"
      )
    }))

  it.effect("accepts public addresses", () =>
    Effect.gen(function*() {
      for (const url of ["https://8.8.8.8/", "http://172.32.0.1/", "http://100.128.0.1/", "https://[2606:4700:4700::1111]:8443/x"]) {
        const parsed = yield* checkOutboundUrl(url, [])
        expect(parsed.href).toBe(new URL(url).href)
      }
      expect(classifyAddress("93.184.215.14")).toBeUndefined()
      expect(classifyAddress("2a00:1450:4001:80b::200e")).toBeUndefined()
    }))

  it.effect("refuses other schemes, credentials and malformed URLs", () =>
    Effect.gen(function*() {
      for (const url of ["ftp://8.8.8.8/", "file:///etc/passwd", "javascript:alert(1)", "gopher://8.8.8.8/"]) {
        expect((yield* refusal(url)).reason).toBe("scheme")
      }
      const credentials = yield* refusal("https://user:secret@8.8.8.8/")
      expect(credentials.reason).toBe("credentials")
      expect(credentials.message).not.toContain("secret")
      expect((yield* refusal("https://token@8.8.8.8/")).reason).toBe("credentials")
      expect((yield* refusal("not a url")).reason).toBe("invalid_url")
      expect((yield* refusal("/relative/path")).reason).toBe("invalid_url")
    }))

  it.effect("refuses a hostname that resolves to loopback (localhost)", () =>
    Effect.gen(function*() {
      const { error, log } = yield* refusalLogged("http://localhost:3000/mcp")
      expect(error.reason).toBe("address")
      expect(error.addressClass).toBe("loopback")
      expect(error.message).toBe(
        "refused to call localhost: it resolves to a loopback address, which this server does not call; to allow it, " +
          "set SWITCHYARD_OUTBOUND_ALLOWLIST=localhost on the server (added to any entries it has, comma-separated) and restart it"
      )
      expect(log).toContain("localhost: it resolves to")
      expect(log).toContain("\"localhost:3000\"")
    }))

  it.effect("refuses when any one of the resolved addresses is private", () =>
    Effect.gen(function*() {
      vi.mocked(Dns.lookup).mockResolvedValueOnce(
        [{ address: "93.184.215.14", family: 4 }, { address: "10.0.0.7", family: 4 }] as never
      )
      const { error, log } = yield* refusalLogged("https://mixed.example/")
      expect(error.address).toBe("10.0.0.7")
      expect(error.addressClass).toBe("private")
      // the caller is not told the internal address; the operator is
      expect(error.message).toBe(
        "refused to call mixed.example: it resolves to a private address, which this server does not call; to allow it, " +
          "set SWITCHYARD_OUTBOUND_ALLOWLIST=mixed.example on the server (added to any entries it has, comma-separated) and restart it"
      )
      expect(error.message).not.toContain("10.0.0.7")
      expect(log).toContain("mixed.example: it resolves to 10.0.0.7, which is a private address")

      vi.mocked(Dns.lookup).mockResolvedValueOnce([{ address: "::ffff:169.254.169.254", family: 6 }] as never)
      expect((yield* refusal("https://rebind.example/")).addressClass).toBe("link-local")

      vi.mocked(Dns.lookup).mockResolvedValueOnce([{ address: "93.184.215.14", family: 4 }] as never)
      expect((yield* checkOutboundUrl("https://public.example/", [])).hostname).toBe("public.example")
    }))

  it.effect("refuses names that do not resolve", () =>
    Effect.gen(function*() {
      vi.mocked(Dns.lookup).mockRejectedValueOnce(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }))
      const error = yield* refusal("https://nowhere.invalid/")
      expect(error.reason).toBe("unresolvable")
      expect(error.message).toBe("cannot resolve nowhere.invalid: ENOTFOUND")
    }))

  describe("allowlist", () => {
    it.effect("a host allows it on any port", () =>
      Effect.gen(function*() {
        expect((yield* checkOutboundUrl("http://localhost:3000/mcp", ["localhost"])).port).toBe("3000")
        expect((yield* checkOutboundUrl("http://LOCALHOST./mcp", ["localhost"])).hostname).toBe("localhost.")
        yield* checkOutboundUrl("http://127.0.0.1:1/", ["127.0.0.1"])
        yield* checkOutboundUrl("http://127.1/", ["127.0.0.1"])
        yield* checkOutboundUrl("http://[::1]:8080/", ["::1"])
        yield* checkOutboundUrl("http://[::1]:8080/", ["[::1]"])
        expect((yield* refusal("http://127.0.0.2/", ["127.0.0.1"])).addressClass).toBe("loopback")
      }))

    it.effect("host:port allows only that port (default ports included)", () =>
      Effect.gen(function*() {
        yield* checkOutboundUrl("http://localhost:8080/mcp", ["localhost:8080"])
        expect((yield* refusal("http://localhost:8081/mcp", ["localhost:8080"])).reason).toBe("address")
        expect((yield* refusal("http://localhost/mcp", ["localhost:8080"])).reason).toBe("address")
        yield* checkOutboundUrl("http://localhost/mcp", ["localhost:80"])
        yield* checkOutboundUrl("https://10.0.0.5/mcp", ["10.0.0.5:443"])
        yield* checkOutboundUrl("http://[::1]:3000/", ["[::1]:3000"])
        expect((yield* refusal("http://[::1]:3001/", ["[::1]:3000"])).addressClass).toBe("loopback")
      }))

    it.effect("a CIDR allows the addresses a host resolves to", () =>
      Effect.gen(function*() {
        yield* checkOutboundUrl("http://localhost:3000/", ["127.0.0.0/8"])
        yield* checkOutboundUrl("http://10.20.30.40/", ["10.0.0.0/8"])
        yield* checkOutboundUrl("http://[fd12:3456::1]/", ["fd00::/8"])
        yield* checkOutboundUrl("http://[::ffff:10.1.1.1]/", ["10.0.0.0/8"])
        expect((yield* refusal("http://192.168.1.1/", ["10.0.0.0/8"])).addressClass).toBe("private")

        vi.mocked(Dns.lookup).mockResolvedValueOnce(
          [{ address: "10.0.0.7", family: 4 }, { address: "192.168.0.7", family: 4 }] as never
        )
        expect((yield* refusal("https://split.internal/", ["10.0.0.0/8"])).address).toBe("192.168.0.7")
      }))

    it("parses SWITCHYARD_OUTBOUND_ALLOWLIST", () => {
      expect(parseOutboundAllowlist(" localhost:8080, 10.0.0.0/8 ,,MCP.Internal, [::1]:3000, fd00::/8, 127.0.0.1 "))
        .toEqual(Either.right(["localhost:8080", "10.0.0.0/8", "mcp.internal", "[::1]:3000", "fd00::/8", "127.0.0.1"]))
      expect(parseOutboundAllowlist("")).toEqual(Either.right([]))
      const invalid = parseOutboundAllowlist("ok.example, 10.0.0.0/33, host:99999, http://x/, a b")
      expect(Either.isLeft(invalid) && invalid.left.message).toBe(
        "SWITCHYARD_OUTBOUND_ALLOWLIST has entries that are not a host, host:port or CIDR: 10.0.0.0/33, host:99999, http://x/, a b"
      )
    })

    it.effect("reads the allowlist from config", () =>
      Effect.gen(function*() {
        const read = (env: Record<string, string>) =>
          Effect.withConfigProvider(
            outboundAllowlistConfig,
            ConfigProvider.fromMap(new Map(Object.entries(env)))
          )
        expect(yield* read({})).toEqual([])
        expect(yield* read({ SWITCHYARD_OUTBOUND_ALLOWLIST: "localhost, 10.0.0.0/8" })).toEqual(["localhost", "10.0.0.0/8"])
        const error = yield* Effect.flip(read({ SWITCHYARD_OUTBOUND_ALLOWLIST: "10.0.0.0/99" }))
        expect(String(error)).toContain("10.0.0.0/99")
      }))
  })

  it.effect("an unparsable URL gets a verdict (refused as invalid), not a defect", () =>
    Effect.gen(function*() {
      const verdicts = yield* makeOutboundVerdicts([])
      const verdict = yield* verdicts.get(new VerdictKey("http://[not-an-address/", false))
      expect(Either.isLeft(verdict) && verdict.left.reason).toBe("invalid_url")
    }))
})
