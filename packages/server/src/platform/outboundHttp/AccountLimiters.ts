import { Clock, Effect } from "effect"
import { ProviderSlots } from "./ProviderSlots.js"

/** One account's rate slots and connection permits for one rate limit. */
export interface AccountLimits {
  readonly slots: ProviderSlots
  readonly permits: Effect.Semaphore
}

interface Entry extends AccountLimits {
  /** Calls under way with these limits, retries and waits included. */
  calls: number
}

/** How often idle entries are looked for: often enough to bound memory, rarely enough to cost nothing per call. */
const SWEEP_INTERVAL_MS = 60_000

/**
 * The limits of every account that calls its provider. An entry is dropped once idle: no call
 * under way and every rate reservation in the past. A fresh entry then admits exactly as the
 * old one would, so dropping it changes nothing but the memory an account that stopped
 * calling holds.
 */
export class AccountLimiters {
  private readonly entries = new Map<string, Entry>()
  private sweptAt = 0

  constructor(
    private readonly options: {
      readonly maxWaitMs: number
      readonly maxWaiting: number
      readonly maxConcurrent: number
    }
  ) {}

  /** Accounts (per rate limit) whose limits are held. */
  get size(): number {
    return this.entries.size
  }

  /** Runs `use` with the limits of `accountId` at `perSecond`; they are kept while it runs. */
  use<A, E, R>(
    accountId: string,
    perSecond: number | undefined,
    use: (limits: AccountLimits) => Effect.Effect<A, E, R>
  ): Effect.Effect<A, E, R> {
    return Effect.acquireUseRelease(
      Effect.map(Clock.currentTimeMillis, (now) => this.acquire(`${accountId}:${perSecond ?? "-"}`, perSecond, now)),
      use,
      (entry) => Effect.sync(() => void entry.calls--)
    )
  }

  private acquire(key: string, perSecond: number | undefined, now: number): Entry {
    if (now - this.sweptAt >= SWEEP_INTERVAL_MS) this.sweep(now)
    let entry = this.entries.get(key)
    if (entry === undefined) {
      entry = {
        slots: new ProviderSlots(perSecond, this.options.maxWaitMs, this.options.maxWaiting),
        permits: Effect.unsafeMakeSemaphore(this.options.maxConcurrent),
        calls: 0
      }
      this.entries.set(key, entry)
    }
    entry.calls++
    return entry
  }

  private sweep(now: number): void {
    this.sweptAt = now
    for (const [key, entry] of this.entries) {
      if (entry.calls === 0 && entry.slots.idle(now)) this.entries.delete(key)
    }
  }
}
