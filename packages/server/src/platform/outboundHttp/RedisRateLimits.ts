import { createHash } from "node:crypto"
import { Duration, Effect, Redacted, Runtime } from "effect"
import { Redis } from "ioredis"
import { RateLimitStoreUnavailable, type SharedRateLimits } from "./SharedRateLimits.js"

/**
 * GCRA on Redis's own clock (TIME), in one script so a reservation is atomic. The bucket
 * expires once it is empty again: an idle account's key vanishes, and a missing key admits as
 * a fresh bucket would. Numbers go back as strings (Redis truncates Lua numbers to integers).
 */
const RESERVE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local spacing = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local emptyAt = tonumber(redis.call('GET', KEYS[1]) or '0')
local from = math.max(emptyAt, now)
local wait = from - now
if maxWait >= 0 and wait > maxWait then return {0, tostring(wait)} end
local nextEmptyAt = from + spacing
redis.call('SET', KEYS[1], tostring(nextEmptyAt), 'PX', math.ceil(nextEmptyAt - now) + 1000)
return {1, tostring(wait)}
`
const RESERVE_SHA = createHash("sha1").update(RESERVE).digest("hex")

/** Where Redis is, for messages: host and port, never the credentials. */
export const redisTarget = (url: string) => {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || "6379"}`
  } catch {
    return "(unparsable REDIS_URL)"
  }
}

/** The message of a Redis client error without the URL's password, should a message ever quote it. */
const messageOf = (error: unknown, url: string) => {
  const message = error instanceof Error ? error.message : String(error)
  const password = URL.canParse(url) ? decodeURIComponent(new URL(url).password) : ""
  return password === "" ? message : message.split(password).join("***")
}

/**
 * The `redis` store at `REDIS_URL`: connected (and answering PING) before the server starts, or
 * the start fails saying so. During an outage a reservation fails within `timeoutMs` (no offline
 * queue, one command timeout) and the call is not sent: falling back to per-process limits
 * would multiply the provider's limit by the number of processes, which is what gets an
 * account throttled or banned, so the failure is answered instead (502, provider unavailable).
 */
export const makeRedisRateLimits = (options: {
  readonly url: Redacted.Redacted<string>
  readonly keyPrefix: string
  readonly timeoutMs: number
}) =>
  Effect.gen(function*() {
    const url = Redacted.value(options.url)
    const target = redisTarget(url)
    const runtime = yield* Effect.runtime<never>()
    const client = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new Redis(url, {
          lazyConnect: true,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: options.timeoutMs,
          commandTimeout: options.timeoutMs
        })
      ),
      (client) => Effect.sync(() => client.disconnect())
    )
    let down = false
    /** The connection's own failure (refused, unknown host), more telling than a command's "Connection is closed". */
    let lastError: unknown
    // an outage is logged once when it starts and once when it ends; each failed call still answers
    client.on("error", (error) => {
      lastError = error
      if (down) return
      down = true
      Runtime.runFork(runtime)(Effect.logWarning(`Redis at ${target} failed: ${messageOf(error, url)}`))
    })
    client.on("ready", () => {
      if (!down) return
      down = false
      Runtime.runFork(runtime)(Effect.logInfo(`Redis at ${target} answers again`))
    })
    yield* Effect.tryPromise(() => client.connect().then(() => client.ping())).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(Math.max(options.timeoutMs, 5_000)),
        onTimeout: () => `no answer within ${Math.max(options.timeoutMs, 5_000)} ms`
      }),
      Effect.mapError((error) =>
        `REDIS_URL: cannot reach Redis at ${target} (${typeof error === "string" ? error : messageOf(lastError ?? error.error, url)})`
      ),
      Effect.tapError(() => Effect.sync(() => client.disconnect())),
      Effect.orDieWith((message) => new Error(message))
    )

    const evaluate = (key: string, args: ReadonlyArray<string>) =>
      client.evalsha(RESERVE_SHA, 1, key, ...args).catch((error: unknown) =>
        error instanceof Error && error.message.startsWith("NOSCRIPT")
          ? client.eval(RESERVE, 1, key, ...args)
          : Promise.reject(error)
      ) as Promise<[number, string]>

    const reserve: SharedRateLimits["reserve"] = (key, { spacingMs }, maxWaitMs) =>
      Effect.tryPromise({
        try: () => evaluate(`${options.keyPrefix}${key}`, [String(spacingMs), String(maxWaitMs ?? -1)]),
        catch: (error) => new RateLimitStoreUnavailable({ message: `Redis at ${target} failed: ${messageOf(error, url)}` })
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(options.timeoutMs),
          onTimeout: () => new RateLimitStoreUnavailable({ message: `Redis at ${target} did not answer within ${options.timeoutMs} ms` })
        }),
        Effect.map(([admitted, wait]) => ({ admitted: admitted === 1, waitMs: Math.ceil(Number(wait)) }))
      )

    return { kind: "redis", reserve, deleteIdle: Effect.void } satisfies SharedRateLimits
  })
