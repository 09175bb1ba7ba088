import { Effect, Option } from "effect"
import { SwitchyardConfig } from "../Config.js"
import { makePostgresRateLimits } from "./PostgresRateLimits.js"
import { makeRedisRateLimits } from "./RedisRateLimits.js"
import type { SharedRateLimits } from "./SharedRateLimits.js"

/**
 * Where provider rate limits are held (SWITCHYARD_RATE_LIMIT_STORE): `shared` is undefined for
 * `memory`, whose limits `ProviderSlots` keeps in the process at no I/O cost (right for the
 * single-process embedded database); `postgres` and `redis` hold them for the whole fleet.
 */
export class RateLimitStore extends Effect.Service<RateLimitStore>()("Switchyard/RateLimitStore", {
  scoped: Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const { keyPrefix, redisTimeoutMs, store } = config.rateLimits
    let shared: SharedRateLimits | undefined
    if (store === "postgres") shared = yield* makePostgresRateLimits
    if (store === "redis") {
      // the config only chooses redis with REDIS_URL set
      const url = Option.getOrThrow(config.rateLimits.redisUrl)
      shared = yield* makeRedisRateLimits({ url, keyPrefix, timeoutMs: redisTimeoutMs })
    }
    yield* Effect.logDebug(`provider rate limits held in ${store}`)
    return { kind: store, shared } as const
  })
}) {}
