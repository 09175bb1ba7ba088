import { Cache, Cause, Duration, Effect, Equal, Exit, Hash } from "effect"
import { createHash } from "node:crypto"

/*
 * Access tokens fetched by the runner (OAuth 2.0 client credentials), kept in an Effect
 * `Cache` until shortly before they expire. The cache runs one fetch per key at a time:
 * concurrent runs that miss wait for the fetch under way. A failed fetch is not kept; the
 * waiters of an interrupted fetch fetch again themselves.
 */

export interface FetchedToken {
  readonly accessToken: string
  /** Lifetime in seconds as the token endpoint reported it (`expires_in`). */
  readonly expiresInSeconds: number
}

export interface TokenCacheOptions {
  /** Tokens are dropped this long before they expire (capped at half their lifetime). Default 60. */
  readonly marginSeconds?: number
  /** At most this many tokens are kept (least recently used go first). Default 10 000. */
  readonly maxEntries?: number
}

/**
 * A cache key that brings its own fetch: the cache's lookup runs the fetch of the first
 * caller that misses. Equality and hash are the key text only.
 */
class TokenRequest implements Equal.Equal {
  constructor(readonly key: string, readonly fetch: Effect.Effect<FetchedToken, unknown>) {}
  [Equal.symbol](that: unknown): boolean {
    return that instanceof TokenRequest && that.key === this.key
  }
  [Hash.symbol](): number {
    return Hash.string(this.key)
  }
}

export class TokenCache {
  private readonly cache: Cache.Cache<TokenRequest, FetchedToken, unknown>

  constructor(options: TokenCacheOptions = {}) {
    const marginMs = (options.marginSeconds ?? 60) * 1000
    this.cache = Effect.runSync(Cache.makeWith({
      capacity: Math.max(1, options.maxEntries ?? 10_000),
      lookup: (request: TokenRequest) => request.fetch,
      timeToLive: (exit) => {
        if (Exit.isFailure(exit)) return Duration.zero
        const lifetimeMs = Math.max(0, exit.value.expiresInSeconds * 1000)
        return Duration.millis(lifetimeMs - Math.min(marginMs, lifetimeMs / 2))
      }
    }))
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
    return Effect.runSync(this.cache.size)
  }

  invalidate(key: string): void {
    Effect.runSync(this.cache.invalidate(new TokenRequest(key, Effect.never)))
  }

  clear(): void {
    Effect.runSync(this.cache.invalidateAll)
  }

  /** The cached token for `key`, or the result of `fetch` (run at most once at a time per key). */
  get<E>(key: string, fetch: Effect.Effect<FetchedToken, E>): Effect.Effect<string, E> {
    const request = new TokenRequest(key, fetch)
    const attempt: Effect.Effect<string, E> = Effect.flatMap(Effect.exit(this.cache.get(request)), (exit) => {
      if (Exit.isSuccess(exit)) return Effect.succeed(exit.value.accessToken)
      // the fetch this caller waited for was interrupted (its run ended): fetch again
      if (Cause.isInterruptedOnly(exit.cause)) return Effect.suspend(() => attempt)
      // the failure stays only for the callers already waiting on it
      return Effect.zipRight(this.cache.invalidate(request), Effect.failCause(exit.cause as Cause.Cause<E>))
    })
    return attempt
  }
}

/** The cache runs use when their `RunContext` names none (one per process). */
export const defaultTokenCache = new TokenCache()
