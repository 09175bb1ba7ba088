import { Cause, Duration, Effect, Option, Schedule } from "effect"
import { JobsRepo } from "./JobsRepo.js"

/**
 * A background job. `process` jobs flush this process's own memory and run in every
 * process; `cluster` jobs touch shared rows and run in one process per period.
 */
export interface Job {
  readonly name: string
  readonly scope: "process" | "cluster"
  readonly every: Duration.Duration
  readonly run: Effect.Effect<unknown, unknown>
}

/**
 * Runs background jobs for as long as the scope lives: each every period, after a first wait.
 * Each job survives its failures (logged and recorded; the next tick tries again), a cluster
 * job runs in one process per period (claimed in the jobs table), and process jobs run once
 * more when the scope closes, so nothing buffered is lost. What the jobs are is the app's
 * business (`SchedulerLive`).
 */
export const runJobs = (jobs: ReadonlyArray<Job>) =>
  Effect.gen(function*() {
    const jobsRepo = yield* JobsRepo
    const runClaimed = (job: Job) =>
      Effect.gen(function*() {
        const claimed = yield* jobsRepo.claim(job.name, job.every)
        if (Option.isNone(claimed)) return
        // one line per fleet-wide run, so an operator (and the fleet test) sees which process ran each period
        const [took] = yield* Effect.timed(job.run)
        yield* jobsRepo.recordError(job.name, null)
        yield* Effect.logInfo("cluster job ran").pipe(
          Effect.annotateLogs({ period_start: claimed.value, took_ms: String(Math.round(Duration.toMillis(took))) })
        )
      })

    const runJobOnce = (job: Job) =>
      (job.scope === "cluster" ? runClaimed(job) : job.run).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning(`job ${job.name} failed; it runs again on the next tick`, Cause.squash(cause)).pipe(
            Effect.zipRight(
              job.scope === "cluster"
                ? Effect.ignore(jobsRepo.recordError(job.name, Cause.pretty(cause).slice(0, 2000)))
                : Effect.void
            )
          )
        ),
        Effect.annotateLogs("job", job.name)
      )

    for (const job of jobs) {
      yield* runJobOnce(job).pipe(Effect.repeat(Schedule.spaced(job.every)), Effect.delay(job.every), Effect.forkScoped)
    }
    yield* Effect.addFinalizer(() =>
      Effect.forEach(jobs.filter((job) => job.scope === "process"), runJobOnce, { discard: true })
    )
  })
