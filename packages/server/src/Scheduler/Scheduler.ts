import { Cause, Duration, Effect, Layer, Option, Schedule } from "effect"
import { LastRequestTracker } from "../Accounts/LastRequestTracker.js"
import { IdempotencyRepo } from "../Actions/IdempotencyRepo.js"
import { RequestLog } from "../Actions/RequestLog.js"
import { SwitchyardConfig } from "../Config.js"
import type { ClusterJobName } from "./ClusterJobPeriods.js"
import { JobsRepo } from "./JobsRepo.js"
import { RateLimitStore } from "../Provider/RateLimitStore.js"
import { WebhooksRepo } from "../Webhooks/WebhooksRepo.js"
import { ServerInstance } from "./ServerInstance.js"

/**
 * A background job. `process` jobs flush this process's own memory and run in every
 * process; `cluster` jobs touch shared rows and run in one process per period.
 */
interface Job {
  readonly name: string
  readonly scope: "process" | "cluster"
  readonly every: Duration.Duration
  readonly run: Effect.Effect<unknown, unknown>
}

const BATCH = 10_000
/** Batches one retention run may delete; a busier log catches up over the next runs. */
const RETENTION_MAX_BATCHES = 50

/**
 * The one place background work is declared. Each job survives its failures (logged and
 * recorded; the next tick tries again), stops with the server, and process jobs run once
 * more on the way out so nothing buffered is lost.
 */
export const SchedulerLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const jobsRepo = yield* JobsRepo
    const lastRequests = yield* LastRequestTracker
    const requestLog = yield* RequestLog
    const idempotency = yield* IdempotencyRepo
    const instance = yield* ServerInstance
    const webhooks = yield* WebhooksRepo
    // absent in units that run the scheduler alone: nothing shared to forget then
    const rateLimits = Option.getOrUndefined(yield* Effect.serviceOption(RateLimitStore))?.shared

    /** A fleet-wide job, its period from SWITCHYARD_JOB_PERIODS or its default. */
    const clusterJob = (name: ClusterJobName, run: Job["run"]): Job => ({
      name,
      scope: "cluster",
      every: Duration.seconds(config.clusterJobPeriods[name]),
      run
    })

    const jobs: ReadonlyArray<Job> = [
      {
        name: "instance_heartbeat",
        scope: "process",
        every: Duration.seconds(config.instanceHeartbeatSeconds),
        run: instance.heartbeat
      },
      {
        name: "flush_last_request",
        scope: "process",
        every: Duration.seconds(config.lastRequestFlushSeconds),
        run: lastRequests.flush
      },
      {
        name: "flush_request_log",
        scope: "process",
        every: Duration.seconds(config.requestLogFlushSeconds),
        run: requestLog.flush
      },
      clusterJob("expire_idempotency_keys", idempotency.deleteExpired(BATCH)),
      clusterJob(
        "request_log_retention",
        requestLog.purgeOlderThan(config.requestLogRetentionDays, BATCH, RETENTION_MAX_BATCHES)
      ),
      ...(rateLimits === undefined ? [] : [clusterJob("forget_idle_rate_limits", rateLimits.deleteIdle)]),
      clusterJob("webhook_event_retention", webhooks.deleteFinishedOlderThan(config.webhooks.retentionDays, BATCH))
    ]

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
).pipe(Layer.provide([JobsRepo.Default, IdempotencyRepo.Default, ServerInstance.Default, WebhooksRepo.Default]))
