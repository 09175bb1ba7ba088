import { Duration, Effect, Layer, Option } from "effect"
import { LastRequestTracker } from "../features/accounts/LastRequestTracker.js"
import { ApiKeyUsage } from "../features/auth/ApiKeyUsage.js"
import { DashboardSessionsRepo } from "../features/auth/DashboardSessionsRepo.js"
import { IdempotencyRepo } from "../features/actions/IdempotencyRepo.js"
import { RequestLog } from "../features/requestLogs/RequestLog.js"
import { SwitchyardConfig } from "../platform/Config.js"
import { RateLimitStore } from "../platform/outboundHttp/RateLimitStore.js"
import type { ClusterJobName } from "../platform/jobs/ClusterJobPeriods.js"
import { JobsRepo } from "../platform/jobs/JobsRepo.js"
import { type Job, runJobs } from "../platform/jobs/runJobs.js"
import { ServerInstance } from "../platform/fleet/ServerInstance.js"
import { WebhooksRepo } from "../features/webhooks/WebhooksRepo.js"

const BATCH = 10_000
/** Batches one retention run may delete; a busier log catches up over the next runs. */
const RETENTION_MAX_BATCHES = 50

/**
 * The one place background work is declared: the features' flushes and retention, run by the
 * platform's job runner (`runJobs`) for as long as the server lives.
 */
export const SchedulerLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const lastRequests = yield* LastRequestTracker
    const apiKeyUsage = yield* ApiKeyUsage
    const requestLog = yield* RequestLog
    const idempotency = yield* IdempotencyRepo
    const instance = yield* ServerInstance
    const webhooks = yield* WebhooksRepo
    const dashboardSessions = yield* DashboardSessionsRepo
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
        name: "flush_api_key_usage",
        scope: "process",
        every: Duration.seconds(config.lastRequestFlushSeconds),
        run: apiKeyUsage.flush
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
      clusterJob("webhook_event_retention", webhooks.deleteFinishedOlderThan(config.webhooks.retentionDays, BATCH)),
      // ended and expired sessions are refused already; this only keeps the table small
      clusterJob("purge_dashboard_sessions", dashboardSessions.deleteFinished(BATCH))
    ]

    yield* runJobs(jobs)
  })
).pipe(Layer.provide([JobsRepo.Default, IdempotencyRepo.Default, ServerInstance.Default, WebhooksRepo.Default, ApiKeyUsage.Default, DashboardSessionsRepo.Default]))
