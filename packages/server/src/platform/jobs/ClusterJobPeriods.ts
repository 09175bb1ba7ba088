import { Config } from "effect"

/**
 * The jobs that touch shared rows, run by one process of the fleet per period, and their
 * default periods in seconds. The scheduler declares what each one does.
 */
export const CLUSTER_JOB_DEFAULT_SECONDS = {
  expire_idempotency_keys: 600,
  request_log_retention: 3600,
  forget_idle_rate_limits: 600,
  webhook_event_retention: 3600,
  purge_dashboard_sessions: 3600
} as const

export type ClusterJobName = keyof typeof CLUSTER_JOB_DEFAULT_SECONDS
export type ClusterJobPeriods = Readonly<Record<ClusterJobName, number>>

const isClusterJob = (name: string): name is ClusterJobName => Object.hasOwn(CLUSTER_JOB_DEFAULT_SECONDS, name)
const MAX_PERIOD_SECONDS = 7 * 86_400

/**
 * `SWITCHYARD_JOB_PERIODS`: `name=seconds` pairs, comma-separated, overriding the periods above
 * (e.g. retention sweeps more often on a busy log). Unknown names are refused rather than
 * ignored, so a typo does not silently keep the default.
 */
export const clusterJobPeriodsConfig = Config.string("SWITCHYARD_JOB_PERIODS").pipe(
  Config.map((text) =>
    text.split(",").map((part) => part.trim()).filter((part) => part.length > 0).map((part) => part.split("="))
  ),
  Config.validate({
    message: `SWITCHYARD_JOB_PERIODS must be comma-separated name=seconds pairs (1 to ${MAX_PERIOD_SECONDS} seconds) naming jobs among ${
      Object.keys(CLUSTER_JOB_DEFAULT_SECONDS).join(", ")
    }`,
    validation: (pairs) =>
      pairs.every((pair) =>
        pair.length === 2 && isClusterJob(pair[0]!.trim()) && /^\d{1,6}$/.test(pair[1]!.trim()) &&
        Number(pair[1]) >= 1 && Number(pair[1]) <= MAX_PERIOD_SECONDS
      )
  }),
  Config.map((pairs): ClusterJobPeriods => ({
    ...CLUSTER_JOB_DEFAULT_SECONDS,
    ...Object.fromEntries(pairs.map(([name, seconds]) => [name!.trim(), Number(seconds)]))
  })),
  Config.withDefault<ClusterJobPeriods>(CLUSTER_JOB_DEFAULT_SECONDS)
)
