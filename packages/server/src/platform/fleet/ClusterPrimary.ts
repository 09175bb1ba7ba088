import { Effect, Runtime } from "effect"
import cluster, { type Worker } from "node:cluster"

/** A worker that lived shorter than this before dying counts as a crash loop step. */
const STABLE_AFTER_MS = 30_000
const FIRST_RESTART_DELAY_MS = 500
const MAX_RESTART_DELAY_MS = 30_000
/** After the workers' own shutdown grace, this long again before they are killed. */
const KILL_MARGIN_MS = 5_000

export interface ClusterOptions {
  readonly workers: number
  /** The workers' SWITCHYARD_SHUTDOWN_GRACE_SECONDS, in ms: how long a stop may take. */
  readonly shutdownGraceMs: number
  /** Messages workers send over IPC (`process.send`), e.g. for figures the primary gathers. */
  readonly onWorkerMessage?: (worker: Worker, message: unknown) => void
}

/**
 * The primary of `SWITCHYARD_WORKERS`: forks the workers (each runs the whole server on the
 * shared port; Node's cluster spreads connections among them), restarts one that dies with a
 * growing delay while it keeps dying young, and on interruption (SIGTERM/SIGINT, through
 * `runMain`) sends each worker SIGTERM, so each drains as a single process does, and waits for
 * all to exit, killing any still there after the grace. The primary serves nothing itself.
 */
export const runClusterPrimary = (options: ClusterOptions) =>
  Effect.gen(function*() {
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const log = (effect: Effect.Effect<void>) => void runFork(effect)
    let stopping = false
    let youngDeaths = 0
    const startedAt = new Map<number, number>()
    const restarts = new Set<NodeJS.Timeout>()

    const startWorker = () => {
      const worker = cluster.fork()
      startedAt.set(worker.id, Date.now())
      log(Effect.logInfo(`worker ${worker.id} started`).pipe(Effect.annotateLogs("pid", String(worker.process.pid))))
    }

    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      const lived = Date.now() - (startedAt.get(worker.id) ?? 0)
      startedAt.delete(worker.id)
      const how = signal === null ? `with code ${code}` : `on ${signal}`
      const pid = String(worker.process.pid)
      if (stopping) {
        log(Effect.logInfo(`worker ${worker.id} exited ${how}`).pipe(Effect.annotateLogs("pid", pid)))
        return
      }
      youngDeaths = lived < STABLE_AFTER_MS ? youngDeaths + 1 : 0
      const delay = youngDeaths <= 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (youngDeaths - 2))
      const message = `worker ${worker.id} exited ${how}; a new one starts in ${delay} ms`
      // code 0 is a worker stopped on purpose (SIGTERM to it: a rolling restart)
      log((code === 0 ? Effect.logInfo(message) : Effect.logWarning(message)).pipe(Effect.annotateLogs("pid", pid)))
      const timer = setTimeout(() => {
        restarts.delete(timer)
        if (!stopping) startWorker()
      }, delay)
      restarts.add(timer)
    }
    const onMessage = (worker: Worker, message: unknown) => options.onWorkerMessage?.(worker, message)

    cluster.on("exit", onExit)
    cluster.on("message", onMessage)
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        stopping = true
        for (const timer of restarts) clearTimeout(timer)
        const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined)
        yield* Effect.logInfo(`stopping ${running.length} workers`)
        const exits = running.map((worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve()
            worker.process.once("exit", () => resolve())
            worker.process.kill("SIGTERM")
          })
        )
        // interruptible: this finalizer is not, and the timeout must be able to give up waiting
        yield* Effect.interruptible(Effect.promise(() => Promise.all(exits))).pipe(
          Effect.timeout(options.shutdownGraceMs + KILL_MARGIN_MS),
          Effect.catchTag("TimeoutException", () =>
            Effect.logWarning("workers still running after the shutdown grace are killed").pipe(
              Effect.zipRight(Effect.sync(() => running.forEach((worker) => worker.isDead() || worker.process.kill("SIGKILL")))),
              Effect.zipRight(Effect.promise(() => Promise.all(exits)))
            ))
        )
        cluster.off("exit", onExit)
        cluster.off("message", onMessage)
      })
    )

    yield* Effect.logInfo(`starting ${options.workers} workers`)
    for (let i = 0; i < options.workers; i++) startWorker()
    return yield* Effect.never
  }).pipe(Effect.scoped)
