import { describe, expect, it } from "@effect/vitest"
import type { LookupAddress } from "node:dns"
import { createServer } from "node:http"
import type { AddressInfo, LookupFunction } from "node:net"
import { Agent, request } from "undici"
import { guardedLookup } from "../src/platform/outboundHttp/OutboundHttp.js"

/*
 * The connect-time address check: whatever a name resolved to when its URL was vetted, the
 * address a connection is about to use must be public or allowed (DNS rebinding).
 */

/** A resolver that answers `addresses` for every name. */
const resolvingTo = (...addresses: ReadonlyArray<string>): LookupFunction => (_hostname, _options, callback) =>
  (callback as (error: null, addresses: Array<LookupAddress>) => void)(
    null,
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
  )

type Answer = { readonly error: NodeJS.ErrnoException | null; readonly address: unknown }

const lookUp = (lookup: LookupFunction, hostname: string, all = false) =>
  new Promise<Answer>((resolve) =>
    lookup(hostname, { all }, (error: NodeJS.ErrnoException | null, address: unknown) => resolve({ error, address }))
  )

describe("guardedLookup", () => {
  it("refuses a name resolving to a private address, unless the allowlist covers the name or the address", async () => {
    const rebinding = resolvingTo("10.0.0.5")
    const refused = await lookUp(guardedLookup([], rebinding), "rebind.example")
    expect(refused.error?.code).toBe("ERR_OUTBOUND_ADDRESS_REFUSED")
    expect(refused.error?.message).not.toContain("10.0.0.5")
    expect((await lookUp(guardedLookup(["10.0.0.0/8"], rebinding), "rebind.example")).address).toBe("10.0.0.5")
    expect((await lookUp(guardedLookup(["rebind.example"], rebinding), "rebind.example")).error).toBeNull()
    expect((await lookUp(guardedLookup(["rebind.example:8443"], rebinding), "REBIND.example.")).error).toBeNull()
  })

  it("passes public addresses on in the form asked for, and refuses when any address is private", async () => {
    const public4 = guardedLookup([], resolvingTo("93.184.215.14", "2a00:1450:4001:80b::200e"))
    expect((await lookUp(public4, "public.example")).address).toBe("93.184.215.14")
    expect((await lookUp(public4, "public.example", true)).address).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "2a00:1450:4001:80b::200e", family: 6 }
    ])
    const mixed = guardedLookup([], resolvingTo("93.184.215.14", "::ffff:169.254.169.254"))
    expect((await lookUp(mixed, "public.example", true)).error?.code).toBe("ERR_OUTBOUND_ADDRESS_REFUSED")
  })

  it("stops an undici connection to a name that now resolves to loopback", async () => {
    const server = createServer((_request, response) => response.end("reached"))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://rebind.example:${(server.address() as AddressInfo).port}/`
    const call = async (allowlist: ReadonlyArray<string>) => {
      const agent = new Agent({ connect: { lookup: guardedLookup(allowlist, resolvingTo("127.0.0.1")) } })
      try {
        const answer = await request(url, { dispatcher: agent })
        return await answer.body.text()
      } catch (error) {
        return (error as NodeJS.ErrnoException).code
      } finally {
        await agent.destroy()
      }
    }
    try {
      expect(await call([])).toBe("ERR_OUTBOUND_ADDRESS_REFUSED")
      expect(await call(["127.0.0.0/8"])).toBe("reached")
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
