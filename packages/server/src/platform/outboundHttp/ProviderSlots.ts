/*
 * One account's share of its provider: a rate limit by reservation and a bounded number of
 * calls waiting for a connection. Reserving at admission (instead of queueing until a token
 * frees) tells each call at once how long it would wait, so a call that would wait past the
 * configured maximum is refused before it is sent, and the number admitted does not depend
 * on how the waits are scheduled.
 */

/** What a refused call is told: how long until a slot would be its own (ms). */
export interface Refusal {
  readonly _tag: "Refused"
  readonly waitMs: number
  readonly why: "rate" | "queue"
}

export interface Admission {
  readonly _tag: "Admitted"
  /** How long to wait before sending, for the rate limit (ms). */
  readonly waitMs: number
}

/**
 * A rate limit as reservations hold it: one slot every `spacingMs`. No burst: a second's
 * worth of calls at once followed by the steady rate would let a provider see nearly twice
 * its limit within one second, which a provider counting per second answers with 429s (or
 * worse). Evenly spaced slots put at most `perSecond` calls in any second.
 */
export interface Rate {
  readonly spacingMs: number
}

/** The spacing of `perSecond` requests per second; undefined when there is no limit. */
export const rateOf = (perSecond: number | undefined): Rate | undefined =>
  perSecond !== undefined && perSecond > 0 && Number.isFinite(perSecond) ? { spacingMs: 1000 / perSecond } : undefined

export class ProviderSlots {
  /** When the reserved bucket is empty again (ms since the epoch): the next free slot (GCRA's theoretical arrival time). */
  private emptyAt = 0
  /** Calls admitted and not yet holding a connection permit. */
  private waiting = 0
  private readonly spacingMs: number

  constructor(
    /** Requests per second the provider tolerates; undefined for no rate limit. */
    perSecond: number | undefined,
    private readonly maxWaitMs: number,
    private readonly maxWaiting: number
  ) {
    const rate = rateOf(perSecond)
    this.spacingMs = rate?.spacingMs ?? 0
  }

  /**
   * Reserves the next slot, or refuses when it would start more than the maximum wait from
   * now or too many calls already wait. `bounded: false` (a retry of an admitted call)
   * reserves whatever the wait.
   */
  admit(now: number, bounded?: true): Admission | Refusal
  admit(now: number, bounded: false): Admission
  admit(now: number, bounded = true): Admission | Refusal {
    if (bounded && this.waiting >= this.maxWaiting) return { _tag: "Refused", waitMs: 1000, why: "queue" }
    const start = Math.max(this.emptyAt, now)
    const waitMs = start - now
    if (bounded && waitMs > this.maxWaitMs) return { _tag: "Refused", waitMs, why: "rate" }
    this.emptyAt = start + this.spacingMs
    this.waiting++
    return { _tag: "Admitted", waitMs }
  }

  /** Nothing waits and every reservation is in the past: a fresh instance would admit the same. */
  idle(now: number): boolean {
    return this.waiting === 0 && this.emptyAt <= now
  }

  /** The admitted call holds its connection permit now (or gave up waiting). */
  leave(): void {
    this.waiting--
  }
}
