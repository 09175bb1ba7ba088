import { Config, Effect, LogLevel, Option, Redacted } from "effect"
import { outboundAllowlistConfig } from "./Provider/OutboundUrlGuard.js"

/** All configuration, read once through Effect `Config`. */
export class SwitchyardConfig extends Effect.Service<SwitchyardConfig>()("Switchyard/Config", {
  effect: Effect.gen(function*() {
    const port = yield* Config.port("PORT").pipe(Config.withDefault(4000))
    const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
    const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
    const dataDir = yield* Config.string("SWITCHYARD_DATA_DIR").pipe(Config.withDefault(".switchyard"))
    const encryptionKey = yield* Config.option(Config.redacted("SWITCHYARD_ENCRYPTION_KEY"))
    const previousEncryptionKeys = yield* Config.option(Config.redacted("SWITCHYARD_PREVIOUS_ENCRYPTION_KEYS"))
    // An empty value counts as unset, as `VAR= command` users expect.
    const bootstrapApiKey = yield* Config.option(Config.redacted("SWITCHYARD_BOOTSTRAP_API_KEY")).pipe(
      Config.map(Option.filter((key) => Redacted.value(key).length > 0))
    )
    const logLevel = yield* Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))
    const lastRequestFlushSeconds = yield* Config.integer("SWITCHYARD_LAST_REQUEST_FLUSH_SECONDS").pipe(
      Config.validate({ message: "must be between 1 and 3600", validation: (n) => n >= 1 && n <= 3600 }),
      Config.withDefault(5)
    )
    const requestLogRetentionDays = yield* Config.integer("SWITCHYARD_REQUEST_LOG_RETENTION_DAYS").pipe(
      Config.validate({ message: "must be between 1 and 3650", validation: (n) => n >= 1 && n <= 3650 }),
      Config.withDefault(30)
    )
    const providerRequestTimeoutMs = yield* Config.integer("SWITCHYARD_PROVIDER_TIMEOUT_MS").pipe(
      Config.validate({ message: "must be between 10 and 600000", validation: (n) => n >= 10 && n <= 600_000 }),
      Config.withDefault(30_000)
    )
    const providerDeadlineMs = yield* Config.integer("SWITCHYARD_PROVIDER_DEADLINE_MS").pipe(
      Config.validate({ message: "must be between 10 and 900000", validation: (n) => n >= 10 && n <= 900_000 }),
      Config.withDefault(60_000)
    )
    const providerMaxAttempts = yield* Config.integer("SWITCHYARD_PROVIDER_MAX_ATTEMPTS").pipe(
      Config.validate({ message: "must be between 1 and 10", validation: (n) => n >= 1 && n <= 10 }),
      Config.withDefault(4)
    )
    /** Hosts, host:ports and CIDRs the server may call although they are private (SSRF guard). */
    const outboundAllowlist = yield* outboundAllowlistConfig
    return {
      port,
      host,
      databaseUrl,
      /** Where the embedded default keeps its files; `:memory:` keeps nothing on disk. */
      dataDir,
      encryptionKey,
      previousEncryptionKeys: Option.match(previousEncryptionKeys, {
        onNone: () => [] as Array<Redacted.Redacted>,
        onSome: (keys) =>
          Redacted.value(keys).split(",").map((key) => key.trim()).filter((key) => key.length > 0).map(Redacted.make)
      }),
      bootstrapApiKey,
      logLevel,
      lastRequestFlushSeconds,
      outboundAllowlist,
      requestLogRetentionDays,
      providerRequestTimeoutMs,
      providerDeadlineMs,
      providerMaxAttempts
    } as const
  })
}) {}
