import { Config, ConfigError, ConfigProvider, Effect, LogLevel, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import { availableParallelism } from "node:os"
import { encryptionKeyConfig, previousEncryptionKeysConfig } from "./crypto/encryptionKey.js"
import { outboundAllowlistConfig } from "./outboundHttp/OutboundUrlGuard.js"
import { clusterJobPeriodsConfig } from "./jobs/ClusterJobPeriods.js"
import { tracingConfig } from "./tracing/TracingConfig.js"

/** An integer setting within bounds, with its default. */
const boundedInteger = (name: string, min: number, max: number, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `must be between ${min} and ${max}`, validation: (n) => n >= min && n <= max }),
    Config.withDefault(fallback)
  )

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** The listening address as a browser would reach it (a wildcard host means this machine). */
const listeningUrl = (host: string, port: number) => {
  const reachable = host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "[::1]" : host
  return `http://${reachable.includes(":") && !reachable.startsWith("[") ? `[${reachable}]` : reachable}:${port}`
}

/**
 * Seconds after each failed webhook attempt: Standard Webhooks' first steps (5 s to 5 h), then
 * two 8 h waits, so eight attempts span about a day (23.6 h) rather than the three days its
 * full schedule takes: a receiver down for longer is better served by the deliveries list and
 * its retry than by events arriving days late. Tests set a short one, e.g. "0,0,0".
 */
const DEFAULT_WEBHOOK_RETRY_SECONDS = "5,300,1800,7200,18000,28800,28800"

const webhookRetrySeconds = Config.string("SWITCHYARD_WEBHOOK_RETRY_SECONDS").pipe(
  Config.withDefault(DEFAULT_WEBHOOK_RETRY_SECONDS),
  Config.map((text) => text.split(",").map((part) => part.trim())),
  Config.validate({
    message: "must be comma-separated whole seconds (0 to 86400 each), at least one",
    validation: (parts) => parts.length > 0 && parts.every((part) => /^\d{1,5}$/.test(part) && Number(part) <= 86_400)
  }),
  Config.map((parts) => parts.map(Number))
)

/**
 * An attempt's timeout (connect to last byte of the answer) and the lease that keeps other
 * processes off a claimed delivery: a lease shorter than an attempt would let a second
 * process send the same delivery while the first is still waiting for its answer.
 */
const webhookAttemptBounds = Config.all({
  timeoutMs: boundedInteger("SWITCHYARD_WEBHOOK_TIMEOUT_MS", 10, 120_000, 15_000),
  leaseSeconds: boundedInteger("SWITCHYARD_WEBHOOK_LEASE_SECONDS", 1, 3600, 60)
}).pipe(
  Config.validate({
    message: "SWITCHYARD_WEBHOOK_LEASE_SECONDS must be longer than SWITCHYARD_WEBHOOK_TIMEOUT_MS",
    validation: ({ leaseSeconds, timeoutMs }) => leaseSeconds * 1000 > timeoutMs
  })
)

/**
 * Operator-facing metrics: `GET /metrics` on the main port behind a bearer token of at least
 * 16 characters (empty counts as unset), and/or plain on a port of its own.
 */
const metricsConfig = (port: number, host: string) =>
  Config.all({
    token: Config.option(Config.redacted("SWITCHYARD_METRICS_TOKEN")).pipe(
      Config.map(Option.filter((token) => Redacted.value(token).length > 0)),
      Config.validate({
        message: "must be at least 16 characters",
        validation: Option.match({ onNone: () => true, onSome: (token) => Redacted.value(token).length >= 16 })
      })
    ),
    port: Config.option(Config.port("METRICS_PORT")).pipe(
      Config.validate({ message: "must differ from PORT", validation: (metricsPort) => Option.getOrUndefined(metricsPort) !== port })
    ),
    host: Config.string("METRICS_HOST").pipe(Config.withDefault(host))
  })

/**
 * Where provider rate limits live: given by SWITCHYARD_RATE_LIMIT_STORE, else Redis when
 * REDIS_URL is set, else PostgreSQL when DATABASE_URL is set (a fleet shares it), else memory
 * (the embedded database is single-process, so the process's own limits are the whole truth).
 */
const rateLimitsConfig = Effect.gen(function*() {
  const redisUrl = yield* Config.option(Config.redacted("REDIS_URL")).pipe(
    Config.map(Option.filter((url) => Redacted.value(url).length > 0))
  )
  const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
  const fallback = Option.isSome(redisUrl) ? "redis" : Option.isSome(databaseUrl) ? "postgres" : "memory"
  // validated before the default: the message then names the setting (the default is always valid)
  const store = yield* Config.literal("memory", "postgres", "redis")("SWITCHYARD_RATE_LIMIT_STORE").pipe(
    Config.validate({
      message: "is redis, but REDIS_URL is not set (set REDIS_URL=redis://host:6379, or choose memory or postgres)",
      validation: (store) => store !== "redis" || Option.isSome(redisUrl)
    }),
    Config.withDefault(fallback)
  )
  if (Option.isSome(redisUrl) && !/^rediss?:\/\//.test(Redacted.value(redisUrl.value))) {
    return yield* Effect.fail(ConfigError.InvalidData(["REDIS_URL"], "must be a redis:// or rediss:// URL"))
  }
  return {
    store,
    redisUrl,
    /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
    keyPrefix: yield* Config.string("SWITCHYARD_REDIS_KEY_PREFIX").pipe(Config.withDefault("switchyard:rate:")),
    /** Longest a reservation waits for Redis; then the call answers 502 rather than hang. */
    redisTimeoutMs: yield* boundedInteger("SWITCHYARD_REDIS_TIMEOUT_MS", 10, 60_000, 1_000)
  } as const
})

/** Server processes on one port: a count, or `auto` for one per core. */
const workers = Config.string("SWITCHYARD_WORKERS").pipe(
  Config.withDefault("1"),
  Config.validate({
    message: "must be a whole number from 1 to 256, or auto",
    validation: (text) => text.trim() === "auto" || (/^\d{1,3}$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= 256)
  }),
  Config.map((text) => (text.trim() === "auto" ? Math.min(256, availableParallelism()) : Number(text)))
)

/** All configuration, read once through Effect `Config`. */
export class SwitchyardConfig extends Effect.Service<SwitchyardConfig>()("Switchyard/Config", {
  effect: Effect.gen(function*() {
    const port = yield* Config.port("PORT").pipe(Config.withDefault(4000))
    const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
    /** Where end users reach this server (connect links); no trailing slash. */
    const publicUrl = yield* Config.string("SWITCHYARD_PUBLIC_URL").pipe(
      Config.validate({ message: "must be an absolute http or https URL", validation: isHttpUrl }),
      Config.map((url) => url.replace(/\/+$/, "")),
      Config.withDefault(listeningUrl(host, port))
    )
    const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
    const dataDir = yield* Config.string("SWITCHYARD_DATA_DIR").pipe(Config.withDefault(".switchyard"))
    const encryptionKey = yield* encryptionKeyConfig
    const previousEncryptionKeys = yield* previousEncryptionKeysConfig
    // An empty value counts as unset, as `VAR= command` users expect.
    const bootstrapApiKey = yield* Config.option(Config.redacted("SWITCHYARD_BOOTSTRAP_API_KEY")).pipe(
      Config.map(Option.filter((key) => Redacted.value(key).length > 0))
    )
    const logLevel = yield* Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))
    /** One line per entry: `logfmt` (key=value) or `json` for log collectors; `pretty` for a terminal. */
    const logFormat = yield* Config.literal("logfmt", "json", "pretty")("LOG_FORMAT").pipe(Config.withDefault("logfmt"))
    const lastRequestFlushSeconds = yield* boundedInteger("SWITCHYARD_LAST_REQUEST_FLUSH_SECONDS", 1, 3600, 5)
    /** How often buffered request log entries are written (a run shows in the log within this). */
    const requestLogFlushSeconds = yield* boundedInteger("SWITCHYARD_REQUEST_LOG_FLUSH_SECONDS", 1, 3600, 2)
    const requestLogRetentionDays = yield* boundedInteger("SWITCHYARD_REQUEST_LOG_RETENTION_DAYS", 1, 3650, 30)
    const providerRequestTimeoutMs = yield* boundedInteger("SWITCHYARD_PROVIDER_TIMEOUT_MS", 10, 600_000, 30_000)
    const providerDeadlineMs = yield* boundedInteger("SWITCHYARD_PROVIDER_DEADLINE_MS", 10, 900_000, 60_000)
    const providerMaxAttempts = yield* boundedInteger("SWITCHYARD_PROVIDER_MAX_ATTEMPTS", 1, 10, 4)
    /** Longest a call waits for its account's provider rate limit; a longer wait answers 429 at once. */
    const providerMaxQueueWaitMs = yield* boundedInteger("SWITCHYARD_PROVIDER_MAX_QUEUE_WAIT_MS", 0, 600_000, 2_000)
    /** How often a server process marks itself alive; claims of a process silent for 3 periods are recoverable. */
    const instanceHeartbeatSeconds = yield* boundedInteger("SWITCHYARD_INSTANCE_HEARTBEAT_SECONDS", 1, 3600, 10)
    /** Seconds between runs of each fleet-wide maintenance job (one process runs each period). */
    const clusterJobPeriods = yield* clusterJobPeriodsConfig
    /** Largest streamed document download (unified API); checked against Content-Length and while streaming. */
    const maxDownloadBytes = yield* boundedInteger("SWITCHYARD_MAX_DOWNLOAD_BYTES", 1, 2 ** 40, 2 ** 30)
    /** An OAuth2 access token expiring within this many seconds is refreshed before a call uses it. */
    const oauthRefreshSkewSeconds = yield* boundedInteger("SWITCHYARD_OAUTH_REFRESH_SKEW_SECONDS", 0, 86_400, 300)
    /** Hosts, host:ports and CIDRs the server may call although they are private (SSRF guard). */
    const outboundAllowlist = yield* outboundAllowlistConfig
    const metrics = yield* metricsConfig(port, host)
    const rateLimits = yield* rateLimitsConfig
    /** Server processes (PostgreSQL only; the embedded database is single-process). */
    const serverWorkers = yield* workers
    /** On SIGTERM, how long in-flight requests may take before their connections are cut. */
    const shutdownGraceSeconds = yield* boundedInteger("SWITCHYARD_SHUTDOWN_GRACE_SECONDS", 0, 3600, 30)
    const webhooks = {
      /** Delays after each failed attempt; once used up the delivery has failed. */
      retrySeconds: yield* webhookRetrySeconds,
      /** How often each process looks for due deliveries. */
      pollMs: yield* boundedInteger("SWITCHYARD_WEBHOOK_POLL_MS", 10, 60_000, 1_000),
      ...yield* webhookAttemptBounds,
      /** Events whose deliveries are all finished are deleted after this many days. */
      retentionDays: yield* boundedInteger("SWITCHYARD_WEBHOOK_RETENTION_DAYS", 1, 3650, 30),
      /** An endpoint whose every delivery failed for this long is disabled (default 5 days). */
      disableAfterSeconds: yield* boundedInteger("SWITCHYARD_WEBHOOK_DISABLE_AFTER_SECONDS", 0, 90 * 86_400, 5 * 86_400),
      /** Deliveries claimed and sent at once per process. */
      concurrency: yield* boundedInteger("SWITCHYARD_WEBHOOK_CONCURRENCY", 1, 100, 8)
    }
    /** How long a web dashboard sign-in lasts, whatever the browser does meanwhile (absolute, not idle). */
    const dashboardSessionHours = yield* boundedInteger("SWITCHYARD_DASHBOARD_SESSION_HOURS", 1, 24, 8)
    /** OTLP trace export, from the standard OTEL_* variables; none when tracing is off. */
    const tracing = yield* tracingConfig
    return {
      webhooks,
      metrics,
      tracing,
      port,
      host,
      publicUrl,
      databaseUrl,
      /** Where the embedded default keeps its files; `:memory:` keeps nothing on disk. */
      dataDir,
      encryptionKey,
      previousEncryptionKeys,
      bootstrapApiKey,
      logLevel,
      logFormat,
      lastRequestFlushSeconds,
      outboundAllowlist,
      requestLogFlushSeconds,
      requestLogRetentionDays,
      providerRequestTimeoutMs,
      providerDeadlineMs,
      providerMaxAttempts,
      providerMaxQueueWaitMs,
      rateLimits,
      instanceHeartbeatSeconds,
      clusterJobPeriods,
      maxDownloadBytes,
      oauthRefreshSkewSeconds,
      serverWorkers,
      shutdownGraceSeconds,
      dashboardSessionHours
    } as const
  })
}) {}

/**
 * The configuration of a server that lives only as long as its process: an in-memory embedded
 * database, a fresh credential key and the given bootstrap key, read from this map and never
 * from the environment (so a DATABASE_URL there is not touched). Used by `connectors check`'s
 * own server and by the tests' servers.
 */
export const ephemeralServerConfig = (bootstrapApiKey: string, overrides: Record<string, string> = {}) =>
  ConfigProvider.fromMap(
    new Map(Object.entries({
      SWITCHYARD_DATA_DIR: ":memory:",
      SWITCHYARD_ENCRYPTION_KEY: Crypto.randomBytes(32).toString("hex"),
      SWITCHYARD_BOOTSTRAP_API_KEY: bootstrapApiKey,
      ...overrides
    }))
  )
