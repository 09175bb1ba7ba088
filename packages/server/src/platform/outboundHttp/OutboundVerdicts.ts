import { Cache, Duration, Effect, Equal, Hash } from "effect"
import { checkForeignUrl, checkOutboundUrl } from "./OutboundUrlGuard.js"

/** An unparsable URL is its own key: `checkOutboundUrl` refuses it with a message, not a defect. */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/** A URL to vet, equal to every other of its origin and kind: the verdict holds for the origin. */
export class VerdictKey implements Equal.Equal {
  private readonly origin: string

  constructor(readonly url: string, readonly foreign: boolean) {
    this.origin = `${foreign ? "foreign " : ""}${originOf(url)}`
  }

  [Equal.symbol](that: Equal.Equal): boolean {
    return that instanceof VerdictKey && that.origin === this.origin
  }

  [Hash.symbol](): number {
    return Hash.cached(this, Hash.string(this.origin))
  }
}

const VERDICT_TTL = Duration.minutes(1)
const MAX_ORIGINS = 10_000

/**
 * SSRF verdicts (`checkOutboundUrl`) per origin for a minute: DNS answers change, but not per
 * call. At most `capacity` origins are held, the least recently used dropped first. `foreign`
 * links (from provider data) may only reach public addresses: no allowlist for them.
 */
export const makeOutboundVerdicts = (allowlist: ReadonlyArray<string>, capacity: number = MAX_ORIGINS) =>
  Cache.make({
    capacity,
    timeToLive: VERDICT_TTL,
    lookup: (key: VerdictKey) => Effect.either(key.foreign ? checkForeignUrl(key.url) : checkOutboundUrl(key.url, allowlist))
  })
