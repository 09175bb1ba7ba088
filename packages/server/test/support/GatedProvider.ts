import { Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export interface Gate {
  /** Holds the calls that arrive from now on, or only the next `limit` of them (later ones go on). */
  readonly hold: (limit?: number) => void
  readonly release: () => void
  /** Calls waiting at the gate. */
  readonly waiting: () => number
}

/**
 * The provider behind a gate the test holds: while held, calls wait at the gate (counted as
 * they arrive) until released; then, as always, they go on to the sandbox.
 */
export const gatedProvider = (target: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Http.Server; readonly url: string; readonly gate: Gate }>((resume) => {
      let held: Array<() => void> | undefined
      let holding = 0
      const forward = (incoming: Http.IncomingMessage, outgoing: Http.ServerResponse) => {
        const upstream = Http.request(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
        })
        upstream.on("error", () => outgoing.destroy())
        incoming.pipe(upstream)
      }
      const server = Http.createServer((incoming, outgoing) => {
        if (held === undefined || held.length >= holding) forward(incoming, outgoing)
        else held.push(() => forward(incoming, outgoing))
      })
      const gate: Gate = {
        hold: (limit = Infinity) => {
          held = held ?? []
          holding = held.length + limit
        },
        release: () => {
          const waiting = held ?? []
          held = undefined
          waiting.forEach((go) => go())
        },
        waiting: () => held?.length ?? 0
      }
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, gate })))
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
