import { Config, ConfigError, Either, Option, Redacted } from "effect"

/** Where and how spans are exported; absent when tracing is off. */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL (`…/v1/traces`). */
  readonly url: string
  readonly serviceName: string
  /** `OTEL_EXPORTER_OTLP_HEADERS`: often a collector's token, so redacted. */
  readonly headers: Redacted.Redacted<Readonly<Record<string, string>>>
  readonly protocol: "http/protobuf" | "http/json"
  /** One export request, connect to answer. */
  readonly timeoutMs: number
  /** Time between exports (`OTEL_BSP_SCHEDULE_DELAY`). */
  readonly exportIntervalMs: number
  /** Spans per export request; a full batch is sent at once. */
  readonly maxBatchSize: number
}

const optionalText = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((text) => text.trim().length > 0)))

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)

/** The first of a signal-specific and a general variable that is set (the spec's precedence). */
const specificOrGeneral = (specific: string, general: string) =>
  Config.all([optionalText(specific), optionalText(general)]).pipe(
    Config.map(([a, b]) => Option.orElse(a, () => b))
  )

const wholeNumber = (specific: string, general: string, unit: string, min: number, max: number, fallback: number) =>
  specificOrGeneral(specific, general).pipe(
    Config.mapOrFail((value) => {
      if (Option.isNone(value)) return Either.right(fallback)
      const n = Number(value.value)
      return Number.isInteger(n) && n >= min && n <= max
        ? Either.right(n)
        : Either.left(ConfigError.InvalidData([], `${specific === general ? specific : `${specific}/${general}`}: must be whole ${unit} between ${min} and ${max}`))
    })
  )

/**
 * `OTEL_EXPORTER_OTLP_HEADERS` as the spec writes it: `key=value` pairs separated by commas,
 * values percent-decoded. A malformed list is an error, quoting no value (they are tokens).
 */
export const parseOtlpHeaders = (text: string): Either.Either<Record<string, string>, string> => {
  const headers: Record<string, string> = {}
  for (const [index, pair] of text.split(",").entries()) {
    if (pair.trim() === "") continue
    const equals = pair.indexOf("=")
    const name = equals < 0 ? "" : pair.slice(0, equals).trim().toLowerCase()
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      return Either.left(`entry ${index + 1} is not a key=value pair with a valid header name`)
    }
    try {
      headers[name] = decodeURIComponent(pair.slice(equals + 1).trim())
    } catch {
      return Either.left(`the value of ${name} is not valid percent-encoding`)
    }
  }
  return Either.right(headers)
}

const headersConfig = specificOrGeneral("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS").pipe(
  Config.mapOrFail((text) =>
    Either.mapBoth(Option.isNone(text) ? Either.right({}) : parseOtlpHeaders(text.value), {
      onLeft: (message) => ConfigError.InvalidData([], `OTEL_EXPORTER_OTLP_HEADERS: ${message}`),
      onRight: (headers): TracingSettings["headers"] => Redacted.make(headers)
    })
  )
)

/**
 * The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` with `v1/traces` appended (the spec's rule for the base URL).
 */
const urlConfig = Config.all([
  optionalText("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  optionalText("OTEL_EXPORTER_OTLP_ENDPOINT")
]).pipe(
  Config.mapOrFail(([traces, base]) => {
    const url = Option.isSome(traces)
      ? Option.some(traces.value.trim())
      : Option.map(base, (base) => `${base.trim().replace(/\/+$/, "")}/v1/traces`)
    if (Option.isSome(url) && !isHttpUrl(url.value)) {
      return Either.left(ConfigError.InvalidData([], "OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT: must be an absolute http or https URL"))
    }
    return Either.right(url)
  })
)

const switchedOff = Config.all([
  Config.boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  Config.literal("otlp", "none")("OTEL_TRACES_EXPORTER").pipe(Config.withDefault("otlp"))
]).pipe(Config.map(([disabled, exporter]) => disabled || exporter === "none"))

/**
 * The standard OpenTelemetry variables for traces. Tracing is on when an OTLP endpoint is set
 * and neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` turns it off.
 */
export const tracingConfig: Config.Config<Option.Option<TracingSettings>> = Config.all({
  off: switchedOff,
  url: urlConfig,
  serviceName: optionalText("OTEL_SERVICE_NAME").pipe(Config.map(Option.getOrElse(() => "switchyard"))),
  headers: headersConfig,
  protocol: specificOrGeneral("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL").pipe(
    Config.mapOrFail((value) => {
      const protocol = Option.getOrElse(value, () => "http/protobuf")
      return protocol === "http/protobuf" || protocol === "http/json"
        ? Either.right<TracingSettings["protocol"]>(protocol)
        : Either.left(ConfigError.InvalidData([], `OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf or http/json (grpc is not supported)`))
    })
  ),
  timeoutMs: wholeNumber("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT", "milliseconds", 1, 120_000, 10_000),
  exportIntervalMs: wholeNumber("OTEL_BSP_SCHEDULE_DELAY", "OTEL_BSP_SCHEDULE_DELAY", "milliseconds", 1, 600_000, 5_000),
  maxBatchSize: wholeNumber("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "spans", 1, 10_000, 512)
}).pipe(
  Config.map(({ off, url, ...rest }) =>
    off || Option.isNone(url) ? Option.none() : Option.some<TracingSettings>({ url: url.value, ...rest })
  )
)
