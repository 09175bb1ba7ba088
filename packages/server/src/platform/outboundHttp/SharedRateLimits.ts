import { Data, type Effect } from "effect"
import type { Rate } from "./ProviderSlots.js"

/** A shared store's answer: admitted after `waitMs`, or refused because the wait would pass the bound. */
export interface RateReservation {
  readonly admitted: boolean
  readonly waitMs: number
}

/** The store could not be asked in time: the call is not sent (its provider's limit could not be kept). */
export class RateLimitStoreUnavailable extends Data.TaggedError("RateLimitStoreUnavailable")<{
  readonly message: string
}> {}

/**
 * Provider rate limits held outside the process, so every process and machine takes its slots
 * from one GCRA bucket per account and limit. `reserve` is one atomic round trip on the
 * store's own clock: machines with skewed clocks still agree on the spacing.
 */
export interface SharedRateLimits {
  readonly kind: "postgres" | "redis"
  /** Reserves the next slot of `key`; refuses when the wait would exceed `maxWaitMs` (undefined: never refuses). */
  readonly reserve: (
    key: string,
    rate: Rate,
    maxWaitMs: number | undefined
  ) => Effect.Effect<RateReservation, RateLimitStoreUnavailable>
  /** Forgets buckets empty for a while (they admit as fresh ones would); a cluster job calls it. */
  readonly deleteIdle: Effect.Effect<void>
}
