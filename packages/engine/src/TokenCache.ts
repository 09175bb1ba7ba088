import { Cause, Clock, Deferred, Effect, Exit, FiberId } from "effect"
import { createHash } from "node:crypto"

/*
 * Access tokens fetched by the runner (OAuth 2.0 client credentials), kept in memory until
 * shortly before they expire. One fetch per key at a time: concurrent runs that miss the
 * cache wait for the fetch already under way instead of starting their own. A failed or
 * interrupted fetch is not cached; waiters of an interrupted fetch try again themselves.
 */

export interface FetchedToken {
  readonly accessToken: string
  /** Lifetime in seconds as the token endpoint reported it (`expires_in`). */
  readonly expiresInSeconds: number
}

interface CachedToken {
  readonly accessToken: string
  /** Epoch milliseconds (Effect `Clock`) after which the token is not handed out. */
  readonly expiresAt: number
}

export interface TokenCacheOptions {
  /** Tokens are dropped this long before they expire (capped at half their lifetime). Default 60. */
  readonly marginSeconds?: number
  /** At most this many tokens are kept; expired, then oldest entries go first. Default 10 000. */
  readonly maxEntries?: number
}

type Decision =
  | { readonly _tag: "Hit"; readonly token: string }
  | { readonly _tag: "Wait"; readonly deferred: Deferred.Deferred<CachedToken, unknown> }
  | { readonly _tag: "Fetch"; readonly deferred: Deferred.Deferred<CachedToken, unknown> }

export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>()
  private readonly inflight = new Map<string, Deferred.Deferred<CachedToken, unknown>>()
  private readonly marginMs: number
  private readonly maxEntries: number

  constructor(options: TokenCacheOptions = {}) {
    this.marginMs = (options.marginSeconds ?? 60) * 1000
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000)
  }

  /**
   * Cache key of a client-credentials token: token URL, client id, scope and a hash of
   * the client secret (two accounts sharing a client id but not its secret never share
   * a token).
   */
  static key(parts: {
    readonly tokenUrl: string
    readonly clientId: string
    readonly clientSecret: string
    readonly scope?: string | undefined
  }): string {
    const secret = createHash("sha256").update(parts.clientSecret).digest("hex").slice(0, 32)
    return JSON.stringify([parts.tokenUrl, parts.clientId, parts.scope ?? "", secret])
  }

  /** Number of tokens held (expired ones included until evicted). */
  get size(): number {
    return this.tokens.size
  }

  invalidate(key: string): void {
    this.tokens.delete(key)
  }

  clear(): void {
    this.tokens.clear()
  }

  /** The cached token for `key`, or the result of `fetch` (run at most once at a time per key). */
  get<E, R>(key: string, fetch: Effect.Effect<FetchedToken, E, R>): Effect.Effect<string, E, R> {
    const attempt: Effect.Effect<string, E, R> = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const decision = this.decide(key, now)
      switch (decision._tag) {
        case "Hit":
          return Effect.succeed(decision.token)
        case "Wait":
          return Effect.flatMap(Effect.exit(Deferred.await(decision.deferred)), (exit) => {
            if (Exit.isSuccess(exit)) return Effect.succeed(exit.value.accessToken)
            // the fetching run was interrupted: this one fetches (or waits for a newer fetch)
            if (Cause.isInterruptedOnly(exit.cause)) return Effect.suspend(() => attempt)
            return Effect.failCause(exit.cause as Cause.Cause<E>)
          })
        case "Fetch":
          return this.fetchInto(key, decision.deferred, fetch)
      }
    })
    return attempt
  }

  /** Synchronous, so no other fiber can slip in between the lookups and the registration. */
  private decide(key: string, now: number): Decision {
    const hit = this.tokens.get(key)
    if (hit !== undefined) {
      if (hit.expiresAt > now) return { _tag: "Hit", token: hit.accessToken }
      this.tokens.delete(key)
    }
    const pending = this.inflight.get(key)
    if (pending !== undefined) return { _tag: "Wait", deferred: pending }
    const deferred = Deferred.unsafeMake<CachedToken, unknown>(FiberId.none)
    this.inflight.set(key, deferred)
    return { _tag: "Fetch", deferred }
  }

  private fetchInto<E, R>(
    key: string,
    deferred: Deferred.Deferred<CachedToken, unknown>,
    fetch: Effect.Effect<FetchedToken, E, R>
  ): Effect.Effect<string, E, R> {
    return fetch.pipe(
      Effect.flatMap((fetched) =>
        Effect.map(Clock.currentTimeMillis, (now): CachedToken => {
          const lifetimeMs = Math.max(0, fetched.expiresInSeconds * 1000)
          const ttl = lifetimeMs - Math.min(this.marginMs, lifetimeMs / 2)
          const token = { accessToken: fetched.accessToken, expiresAt: now + ttl }
          if (ttl > 0) this.store(key, token, now)
          return token
        })
      ),
      Effect.onExit((exit) =>
        Effect.suspend(() => {
          if (this.inflight.get(key) === deferred) this.inflight.delete(key)
          return Deferred.done(deferred, exit)
        })
      ),
      Effect.map((token) => token.accessToken)
    )
  }

  private store(key: string, token: CachedToken, now: number): void {
    this.tokens.delete(key)
    if (this.tokens.size >= this.maxEntries) {
      for (const [other, cached] of this.tokens) if (cached.expiresAt <= now) this.tokens.delete(other)
      while (this.tokens.size >= this.maxEntries) {
        const oldest = this.tokens.keys().next()
        if (oldest.done === true) break
        this.tokens.delete(oldest.value)
      }
    }
    this.tokens.set(key, token)
  }
}

/** The cache runs use when their `RunContext` names none (one per process). */
export const defaultTokenCache = new TokenCache()
