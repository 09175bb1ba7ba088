import { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect } from "effect"
import * as Dns from "node:dns"
import type { LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import { Agent } from "undici"
import { SwitchyardConfig } from "../Config.js"
import { connectRefusal } from "./OutboundUrlGuard.js"

/**
 * A DNS lookup for outgoing connections that refuses addresses this server does not call
 * unless the allowlist covers them. It judges the very answer the socket connects to, so a
 * name that resolves elsewhere after its URL was vetted (DNS rebinding) reaches nothing private.
 */
export const guardedLookup = (allowlist: ReadonlyArray<string>, lookup: LookupFunction = Dns.lookup): LookupFunction => {
  const refusal = connectRefusal(allowlist)
  return (hostname, options, callback) =>
    lookup(hostname, { ...options, all: true }, (error, answer) => {
      if (error !== null) return callback(error, "")
      const addresses = answer as unknown as ReadonlyArray<LookupAddress>
      const refused = addresses.find(({ address }) => refusal(hostname, address) !== undefined)
      if (refused !== undefined) {
        const failure: NodeJS.ErrnoException = new Error(
          `refused to connect to ${hostname}: it resolves to an address this server does not call (${
            refusal(hostname, refused.address)
          })`
        )
        failure.code = "ERR_OUTBOUND_ADDRESS_REFUSED"
        return callback(failure, "")
      }
      if (options.all === true) return callback(null, addresses as Array<LookupAddress>)
      const [first] = addresses
      return first === undefined
        ? callback(Object.assign(new Error(`cannot resolve ${hostname}: no addresses`), { code: "ENOTFOUND" }), "")
        : callback(null, first.address, first.family)
    })
}

/**
 * The platform's own client spans are off: they record the full URL and every header outside
 * a short list, where connectors put credentials (ProviderHttp spans each call with host and
 * status only). With them go the trace headers, which third parties have no use for.
 */
const untraced = HttpClient.withTracerDisabledWhen(() => true)

const guardedClient = (allowlist: ReadonlyArray<string>) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new Agent({ connect: { lookup: guardedLookup(allowlist) } })),
      (agent) => Effect.promise(() => agent.destroy())
    ),
    (agent) => untraced(NodeHttpClient.makeUndici(agent))
  )

/**
 * The HTTP clients for calls to third parties (providers, their token endpoints, MCP servers):
 * undici with keep-alive, every address checked when connecting. Tests may provide their own.
 */
export class OutboundHttp extends Effect.Service<OutboundHttp>()("Switchyard/OutboundHttp", {
  scoped: Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const client: HttpClient.HttpClient = yield* guardedClient(config.outboundAllowlist)
    const foreignClient: HttpClient.HttpClient = yield* guardedClient([])
    return {
      /** For URLs the operator or a user configured: the operator's allowlist applies. */
      client,
      /** For links taken from provider data: public addresses only. */
      foreignClient
    } as const
  })
}) {}
