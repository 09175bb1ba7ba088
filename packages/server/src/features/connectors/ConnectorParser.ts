import {
  type ConnectorIssue,
  ConnectorParseError,
  type ParsedConnector,
  parseConnectorValue
} from "@switchyard/engine"
import { Effect, Either } from "effect"
import type { Worker } from "node:worker_threads"
import { startModuleWorker } from "../../platform/workerThread.js"

/*
 * Uploaded connector YAML is read on a worker thread: reading a document near the size
 * limit costs hundreds of milliseconds of CPU however well it is bounded, and a refused
 * one costs the server's event loop nothing. Only an accepted document comes back, as
 * canonical JSON, and is checked and compiled here without the YAML reader (schema and
 * expressions, a fraction of the cost). The worker's heap is its own and capped, so a
 * refused upload's memory goes with it.
 */

export interface ParseRequest {
  readonly id: number
  readonly yaml: string
}

export type ParseReply =
  & { readonly id: number; readonly threadId: number }
  & (
    | { readonly canonical: string }
    | { readonly refused: ReadonlyArray<ConnectorIssue> }
    | { readonly crashed: string }
  )

/** Heap ceiling of the worker: the limits keep real work far below it. */
const WORKER_HEAP_MB = 512

/** The worker's module: compiled beside this one, or its source through tsx (see workerThread.ts). */
const startWorker = () =>
  startModuleWorker(new URL("./ConnectorParseWorker.js", import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB }
  })

export class ConnectorParser extends Effect.Service<ConnectorParser>()("Switchyard/ConnectorParser", {
  scoped: Effect.gen(function*() {
    let worker: Worker | undefined
    let nextId = 0
    const waiting = new Map<number, (reply: ParseReply | Error) => void>()

    /** Started on first use; a worker that died fails what it held and is replaced on the next call. */
    const current = (): Worker => {
      if (worker !== undefined) return worker
      const started = startWorker()
      const onWorkerLost = (error: Error) => {
        if (worker !== started) return
        worker = undefined
        for (const resume of waiting.values()) resume(error)
        waiting.clear()
      }
      started.on("message", (reply: ParseReply) => {
        const resume = waiting.get(reply.id)
        waiting.delete(reply.id)
        resume?.(reply)
      })
      started.on("error", onWorkerLost)
      started.on("exit", (code) => onWorkerLost(new Error(`the connector parse worker exited (code ${code})`)))
      started.unref()
      worker = started
      return started
    }

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        const running = worker
        worker = undefined
        await running?.terminate()
      })
    )

    /** The worker's answer for `yaml` (a reply that never comes is interrupted with the request). */
    const parseInWorker = (yaml: string) =>
      Effect.async<ParseReply, never, never>((resume) => {
        const id = nextId++
        waiting.set(id, (reply) => resume(reply instanceof Error ? Effect.die(reply) : Effect.succeed(reply)))
        current().postMessage({ id, yaml } satisfies ParseRequest)
        return Effect.sync(() => waiting.delete(id))
      })

    /** Reads, checks and compiles connector YAML; refused documents fail with every issue found. */
    const parse = (yaml: string): Effect.Effect<ParsedConnector & { readonly threadId: number }, ConnectorParseError> =>
      Effect.flatMap(parseInWorker(yaml), (reply) => {
        if ("refused" in reply) return Effect.fail(ConnectorParseError.fromIssues(reply.refused))
        if ("crashed" in reply) return Effect.die(new Error(`connector parse worker failed: ${reply.crashed}`))
        const checked = parseConnectorValue(JSON.parse(reply.canonical))
        if (Either.isLeft(checked)) {
          return Effect.die(new Error(`a document the parse worker accepted is invalid: ${checked.left.message}`))
        }
        return Effect.succeed({ ...checked.right, threadId: reply.threadId })
      })

    return { parse } as const
  })
}) {}
