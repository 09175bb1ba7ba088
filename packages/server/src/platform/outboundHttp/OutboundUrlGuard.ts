import { Config, ConfigError, Data, Duration, Effect, Either } from "effect"
import ipaddr from "ipaddr.js"
import * as Dns from "node:dns/promises"
import * as Net from "node:net"

/**
 * SSRF protection for URLs the server calls on a user's behalf (MCP servers, provider
 * endpoints): a user must not be able to make Switchyard reach its own loopback, the private
 * network around it or the cloud metadata endpoint, unless the operator allows it.
 */

export const OUTBOUND_ALLOWLIST_ENV = "SWITCHYARD_OUTBOUND_ALLOWLIST"

export type AddressClass =
  | "loopback"
  | "private"
  | "link-local"
  | "unspecified"
  | "carrier-grade NAT"
  | "multicast"
  | "reserved"

export type OutboundUrlRefusedReason = "invalid_url" | "scheme" | "credentials" | "unresolvable" | "address"

export class OutboundUrlRefused extends Data.TaggedError("OutboundUrlRefused")<{
  readonly message: string
  readonly reason: OutboundUrlRefusedReason
  readonly address?: string
  readonly addressClass?: AddressClass
}> {}

export class InvalidOutboundAllowlist extends Data.TaggedError("InvalidOutboundAllowlist")<{
  readonly message: string
}> {}

type Family = "ipv4" | "ipv6"

const familyOf = (address: string): Family => Net.isIPv6(address) ? "ipv6" : "ipv4"

/**
 * IANA special-purpose ranges, first match wins. IPv6 outside 2000::/3 (global unicast) is
 * refused as reserved as a whole; IPv4 embedded in IPv6 (mapped, NAT64, 6to4) is checked as IPv4.
 */
const CLASSES: Parameters<typeof ipaddr.subnetMatch>[1] = Object.fromEntries(
  ([
    ["unspecified", ["0.0.0.0/8", "::/128"]],
    ["loopback", ["127.0.0.0/8", "::1/128"]],
    ["link-local", ["169.254.0.0/16", "fe80::/10"]],
    ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fec0::/10"]],
    ["carrier-grade NAT", ["100.64.0.0/10"]],
    ["multicast", ["224.0.0.0/4", "ff00::/8"]],
    ["reserved", [
      "192.0.0.0/24", // IETF protocol assignments (holds Oracle's 192.0.0.192 metadata)
      "192.0.2.0/24", // documentation
      "192.88.99.0/24", // 6to4 relay anycast
      "198.18.0.0/15", // benchmarking
      "198.51.100.0/24", // documentation
      "203.0.113.0/24", // documentation
      "240.0.0.0/4", // future use, and the broadcast address
      "64:ff9b:1::/48", // local-use NAT64
      "2001::/23", // IETF protocol assignments (Teredo, ...)
      "2001:db8::/32", // documentation
      "3fff::/20" // documentation
    ]]
  ] satisfies ReadonlyArray<readonly [AddressClass, ReadonlyArray<string>]>).map(([name, cidrs]) => [name, cidrs.map(ipaddr.parseCIDR)])
)

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3")

const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96")
const SIX_TO_FOUR = ipaddr.parseCIDR("2002::/16")

/** The IPv4 address an IPv6 address stands for: IPv4-mapped, NAT64 well-known prefix, 6to4. */
const embeddedIpv4 = (address: ipaddr.IPv6): ipaddr.IPv4 | undefined => {
  const [high, low] = address.match(SIX_TO_FOUR)
    ? [address.parts[1]!, address.parts[2]!]
    : address.isIPv4MappedAddress() || address.match(NAT64_WELL_KNOWN)
    ? [address.parts[6]!, address.parts[7]!]
    : []
  return high === undefined || low === undefined ? undefined : new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255])
}

const classOf = (address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass | undefined => {
  const ipv4 = address.kind() === "ipv6" ? embeddedIpv4(address as ipaddr.IPv6) : undefined
  if (ipv4 !== undefined) return classOf(ipv4)
  const matched = ipaddr.subnetMatch(address, CLASSES, "public")
  if (matched !== "public") return matched as AddressClass
  return address.kind() === "ipv6" && !address.match(GLOBAL_UNICAST_V6) ? "reserved" : undefined
}

/** The special-purpose class of an IP address, or undefined for a public one. */
export const classifyAddress = (address: string): AddressClass | undefined => {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  // only the forms Node reads as an address: ipaddr.js would also take 127.1 or 0x7f.1
  return Net.isIP(bare) === 0 ? "reserved" : classOf(ipaddr.parse(bare))
}

// Allowlist ---------------------------------------------------------------------------------

interface Allowlist {
  readonly hosts: ReadonlySet<string>
  readonly hostPorts: ReadonlySet<string>
  readonly networks: Net.BlockList
}

/** Hostnames compare as the WHATWG URL parser writes them (so `127.1` equals `127.0.0.1`). */
const normalizeHost = (host: string): string | undefined => {
  try {
    const url = new URL(`http://${host}/`)
    if (url.username !== "" || url.password !== "" || url.port !== "" || url.pathname !== "/") return undefined
    return url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()
  } catch {
    return undefined
  }
}

type AllowlistEntry =
  | { readonly _tag: "network"; readonly address: string; readonly prefix: number }
  | { readonly _tag: "host"; readonly host: string; readonly port: number | undefined }

const parseEntry = (entry: string): AllowlistEntry | undefined => {
  const slash = entry.indexOf("/")
  if (slash >= 0) {
    const address = entry.slice(0, slash).replace(/^\[|\]$/g, "")
    const prefixText = entry.slice(slash + 1)
    const family = Net.isIP(address)
    const prefix = Number(prefixText)
    if (family === 0 || !/^\d{1,3}$/.test(prefixText) || prefix > (family === 4 ? 32 : 128)) return undefined
    return { _tag: "network", address, prefix }
  }
  if (Net.isIP(entry) !== 0) {
    return { _tag: "network", address: entry, prefix: Net.isIPv4(entry) ? 32 : 128 }
  }
  const withPort = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(entry)
  const hostText = withPort ? withPort[1]! : entry
  const port = withPort ? Number(withPort[2]) : undefined
  if (port !== undefined && (port < 1 || port > 65535)) return undefined
  const host = normalizeHost(hostText)
  return host === undefined || host === "" ? undefined : { _tag: "host", host, port }
}

const splitAllowlist = (value: string) =>
  value.split(",").map((entry) => entry.trim().toLowerCase()).filter((entry) => entry.length > 0)

/**
 * Parses `SWITCHYARD_OUTBOUND_ALLOWLIST`: comma-separated hosts (`mcp.internal`), host:port
 * (`localhost:8080`, `[::1]:3000`), IPs or CIDRs (`10.0.0.0/8`, `fd00::/8`).
 */
export const parseOutboundAllowlist = (
  value: string
): Either.Either<ReadonlyArray<string>, InvalidOutboundAllowlist> => {
  const entries = splitAllowlist(value)
  const invalid = entries.filter((entry) => parseEntry(entry) === undefined)
  return invalid.length > 0
    ? Either.left(
      new InvalidOutboundAllowlist({
        message: `${OUTBOUND_ALLOWLIST_ENV} has entries that are not a host, host:port or CIDR: ${invalid.join(", ")}`
      })
    )
    : Either.right(entries)
}

/** The operator allowlist from the environment; empty when unset. */
export const outboundAllowlistConfig: Config.Config<ReadonlyArray<string>> = Config.string(OUTBOUND_ALLOWLIST_ENV).pipe(
  Config.withDefault(""),
  Config.mapOrFail((value) =>
    Either.mapLeft(parseOutboundAllowlist(value), (error) => ConfigError.InvalidData([], error.message))
  )
)

const compileAllowlist = (entries: ReadonlyArray<string>): Allowlist => {
  const hosts = new Set<string>()
  const hostPorts = new Set<string>()
  const networks = new Net.BlockList()
  for (const text of entries.flatMap(splitAllowlist)) {
    const entry = parseEntry(text)
    if (entry === undefined) continue
    if (entry._tag === "network") {
      networks.addSubnet(entry.address, entry.prefix, familyOf(entry.address))
    } else if (entry.port === undefined) {
      hosts.add(entry.host)
    } else {
      hostPorts.add(`${entry.host} ${entry.port}`)
    }
  }
  return { hosts, hostPorts, networks }
}

/**
 * What a connection may reach, for the connect-time check: given the host name and an address
 * it resolved to, the class that refuses the address, or undefined when it is public or the
 * allowlist covers the host (on any port: `checkOutboundUrl` has checked the port) or the address.
 */
export const connectRefusal = (allowlist: ReadonlyArray<string>) => {
  const allowed = compileAllowlist(allowlist)
  const hostsOfHostPorts = new Set([...allowed.hostPorts].map((hostPort) => hostPort.slice(0, hostPort.lastIndexOf(" "))))
  return (hostname: string, address: string): AddressClass | undefined => {
    const host = hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()
    if (allowed.hosts.has(host) || hostsOfHostPorts.has(host)) return undefined
    const addressClass = classifyAddress(address)
    const bare = address.replace(/%.*$/, "")
    return addressClass === undefined || allowed.networks.check(bare, familyOf(bare)) ? undefined : addressClass
  }
}

// Check -------------------------------------------------------------------------------------

const LOOKUP_TIMEOUT = Duration.seconds(5)

const describeClass = (addressClass: AddressClass, address: string) =>
  address === "169.254.169.254"
    ? "a link-local address (the cloud metadata endpoint)"
    : addressClass === "carrier-grade NAT"
    ? "a carrier-grade NAT (100.64.0.0/10) address"
    : `${addressClass === "unspecified" ? "an" : "a"} ${addressClass} address`

const resolve = (host: string): Effect.Effect<ReadonlyArray<string>, OutboundUrlRefused> =>
  Net.isIP(host) !== 0
    ? Effect.succeed([host])
    : Effect.tryPromise({
      try: () => Dns.lookup(host, { all: true }),
      catch: (error) =>
        new OutboundUrlRefused({
          reason: "unresolvable",
          message: `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`
        })
    }).pipe(
      Effect.map((results) => results.map((result) => result.address)),
      Effect.timeoutFail({
        duration: LOOKUP_TIMEOUT,
        onTimeout: () => new OutboundUrlRefused({ reason: "unresolvable", message: `cannot resolve ${host}: timed out` })
      }),
      Effect.filterOrFail(
        (addresses) => addresses.length > 0,
        () => new OutboundUrlRefused({ reason: "unresolvable", message: `cannot resolve ${host}: no addresses` })
      )
    )

/** Classes an operator plausibly runs a service on (a sandbox, an internal API): the refusal says how to allow them. */
const ALLOWABLE: ReadonlySet<AddressClass> = new Set<AddressClass>(["loopback", "private", "carrier-grade NAT"])

/**
 * How the operator allows a refused host: the host exactly as the caller gave it, so the
 * message names nothing the caller did not send (not the address a name resolved to).
 */
const allowHint = (host: string) =>
  `; to allow it, set ${OUTBOUND_ALLOWLIST_ENV}=${host} on the server (added to any entries it has, ` +
  "comma-separated) and restart it"

const vetUrl = (
  url: string,
  allowlist: ReadonlyArray<string>,
  allowable: boolean
): Effect.Effect<URL, OutboundUrlRefused> =>
  Effect.gen(function*() {
    const parsed = yield* Effect.try({
      try: () => new URL(url),
      catch: () => new OutboundUrlRefused({ reason: "invalid_url", message: "not a valid absolute URL" })
    })
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      return yield* new OutboundUrlRefused({
        reason: "scheme",
        message: `only http and https URLs are allowed, not ${parsed.protocol.replace(/:$/, "")}`
      })
    }
    if (parsed.username !== "" || parsed.password !== "") {
      return yield* new OutboundUrlRefused({
        reason: "credentials",
        message: "the URL must not carry a user name or password; configure credentials separately"
      })
    }
    const host = parsed.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()
    if (host === "") {
      return yield* new OutboundUrlRefused({ reason: "invalid_url", message: "the URL has no host" })
    }
    const port = parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port)
    const allowed = compileAllowlist(allowlist)
    if (allowed.hosts.has(host) || allowed.hostPorts.has(`${host} ${port}`)) return parsed

    for (const address of yield* resolve(host)) {
      const addressClass = classifyAddress(address)
      if (addressClass === undefined) continue
      const bare = address.replace(/%.*$/, "")
      if (allowed.networks.check(bare, familyOf(bare))) continue
      const hostLabel = parsed.hostname
      const literal = Net.isIP(host) !== 0
      const cidr = `${bare}/${Net.isIPv4(bare) ? 32 : 128}`
      // The server log has the resolved address and every form an entry may take; the
      // caller learns the setting for the host it gave, where allowing it can make sense.
      yield* Effect.logWarning(
        `refused an outbound call to ${hostLabel}: it ${literal ? "is" : `resolves to ${bare}, which is`} ` +
          `${describeClass(addressClass, bare)}. If the operator intends it, add "${hostLabel}", ` +
          `"${hostLabel}:${port}" or a CIDR such as "${cidr}" to ${OUTBOUND_ALLOWLIST_ENV} (comma-separated ` +
          "hosts, host:port or CIDRs); links taken from provider data only ever reach public addresses"
      )
      const hint = allowable && ALLOWABLE.has(addressClass) && bare !== "169.254.169.254" ? allowHint(host) : ""
      return yield* new OutboundUrlRefused({
        reason: "address",
        address: bare,
        addressClass,
        message: `refused to call ${hostLabel}: it ${literal ? "is" : "resolves to"} ` +
          `${describeClass(addressClass, bare)}, which this server does not call${hint}`
      })
    }
    return parsed
  })

/**
 * Parses and vets a URL the operator or a user configured before the server calls it: http(s)
 * only, no credentials, and every address the host resolves to must be public unless the
 * operator allowlist covers it; a refused loopback or private address names the setting that
 * allows it. The HTTP client resolves the name again when it connects; `OutboundHttp` checks
 * that answer too (`connectRefusal`), so a DNS answer changing in between does not reach a
 * private address.
 */
export const checkOutboundUrl = (url: string, allowlist: ReadonlyArray<string>): Effect.Effect<URL, OutboundUrlRefused> =>
  vetUrl(url, allowlist, true)

/**
 * Vets a link taken from provider data (a next page, a download): public addresses only. No
 * setting allows more, so its refusal names none.
 */
export const checkForeignUrl = (url: string): Effect.Effect<URL, OutboundUrlRefused> => vetUrl(url, [], false)
