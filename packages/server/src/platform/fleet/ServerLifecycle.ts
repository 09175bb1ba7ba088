import { HttpApp, HttpMiddleware, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import type { Server } from "node:http"
import * as Net from "node:net"

/**
 * Where this process is in its life, for readiness and a graceful shutdown: once draining,
 * `/readyz` answers 503, responses carry `Connection: close` (clients move to other
 * processes) and the listener is closed while in-flight requests finish.
 */
export class ServerLifecycle extends Effect.Service<ServerLifecycle>()("Switchyard/ServerLifecycle", {
  sync: () => {
    let draining = false
    let server: Server | undefined

    /**
     * Stops accepting connections and waits until every connection has ended, at most
     * `graceMs`; then the rest are cut. `net.Server#close` rather than `http.Server#close`,
     * which would also drop idle keep-alive connections at once: a client sending on one
     * just then would see a reset. Idle ones end at the keep-alive timeout (5 s, announced
     * to clients in `Keep-Alive: timeout=5`), busy ones after their `Connection: close` answer.
     */
    const drain = (graceMs: number) =>
      Effect.suspend(() => {
        if (draining) return Effect.void
        draining = true
        const listening = server
        if (listening === undefined || !listening.listening) return Effect.void
        const closed = new Promise<void>((resolve) => Net.Server.prototype.close.call(listening, () => resolve()))
        return Effect.logInfo("draining: no new connections, in-flight requests finish").pipe(
          // interruptible: a finalizer is not, and the timeout must be able to give up waiting
          Effect.zipRight(Effect.interruptible(Effect.promise(() => closed)).pipe(Effect.timeout(graceMs))),
          Effect.catchTag("TimeoutException", () =>
            Effect.logWarning(`connections still open after the shutdown grace of ${graceMs} ms are closed`).pipe(
              Effect.zipRight(Effect.sync(() => listening.closeAllConnections())),
              Effect.zipRight(Effect.promise(() => closed))
            )),
          Effect.zipRight(Effect.logInfo("drained"))
        )
      })

    return {
      isDraining: () => draining,
      /** Registers the HTTP server to drain (the real server's; test servers have none). */
      attach: (created: Server) => {
        server = created
        return created
      },
      drain
    } as const
  }
}) {}

/**
 * While draining, every answer (also of a request begun before, and an error answer) asks the
 * client to close its connection: Node then ends it after the answer. A pre-response handler,
 * run when the answer is about to be written: the platform writes it inside the middleware
 * (`HttpApp.toHandled`), so a header a middleware set on the response it gets back came too
 * late and never reached the client.
 */
export const closeConnectionsWhenDraining = HttpMiddleware.make((app) =>
  Effect.flatMap(ServerLifecycle, (lifecycle) =>
    Effect.zipRight(
      HttpApp.appendPreResponseHandler((_, response) =>
        Effect.succeed(lifecycle.isDraining() ? HttpServerResponse.setHeader(response, "connection", "close") : response)
      ),
      app
    ))
)
