import { Effect } from "effect"
import * as Http from "node:http"
import type * as Net from "node:net"

/** One request as the receiver got it: the raw body is what a signature covers. */
export interface ReceivedWebhook {
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface ScriptedAnswer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  /** Bytes of body to answer (default a short "ok"). */
  readonly bodyBytes?: number
}

/**
 * A real HTTP receiver on 127.0.0.1: it records every request and answers each path from its
 * script (answers used up in order, then 200), so a test can make an endpoint fail and recover.
 */
export const WebhookReceiver = Effect.acquireRelease(
  Effect.async<{
    readonly url: (path: string) => string
    readonly script: (path: string, answers: ReadonlyArray<ScriptedAnswer>) => void
    readonly received: (path: string) => ReadonlyArray<ReceivedWebhook>
    readonly server: Http.Server
  }>((resume) => {
    const received: Array<ReceivedWebhook> = []
    const scripts = new Map<string, Array<ScriptedAnswer>>()
    const server = Http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const path = request.url ?? "/"
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === "string") headers[name] = value
        }
        received.push({ path, headers, body: Buffer.concat(chunks).toString("utf8") })
        const answer = scripts.get(path)?.shift() ?? { status: 200 }
        response.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers })
        response.end(answer.bodyBytes === undefined ? "ok" : Buffer.alloc(answer.bodyBytes, 120))
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as Net.AddressInfo).port
      resume(Effect.succeed({
        url: (path: string) => `http://127.0.0.1:${port}${path}`,
        script: (path: string, answers: ReadonlyArray<ScriptedAnswer>) => void scripts.set(path, [...answers]),
        received: (path: string) => received.filter((entry) => entry.path === path),
        server
      }))
    })
  }),
  ({ server }) => Effect.async<void>((resume) => {
    server.closeAllConnections()
    server.close(() => resume(Effect.void))
  })
)

/**
 * Repeats `check` until it returns a value (not undefined), every 25 ms, failing after 30 s:
 * a bound for a broken test, not a timing the test relies on.
 */
export const eventually = <A, E, R>(check: Effect.Effect<A | undefined, E, R>, what: string) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 30_000
    while (true) {
      const value = yield* check
      if (value !== undefined) return value
      if (Date.now() > deadline) return yield* Effect.dieMessage(`gave up waiting for ${what}`)
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 25)))
    }
  })
