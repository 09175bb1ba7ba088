import { Context, FiberRef, FiberRefs, HashMap, Layer, Logger, type LogLevel, Option, Tracer } from "effect"

export type LogFormat = "logfmt" | "json" | "pretty"

const loggers: Record<LogFormat, Logger.Logger<unknown, unknown>> = {
  logfmt: Logger.withConsoleLog(Logger.logfmtLogger),
  json: Logger.withConsoleLog(Logger.jsonLogger),
  pretty: Logger.prettyLoggerDefault
}

/**
 * Adds the current span's `trace_id` and `span_id` to an entry logged inside one, so a log
 * line leads to its trace. Only when traces are exported: otherwise the ids lead nowhere.
 */
export const withTraceIds = <O>(logger: Logger.Logger<unknown, O>): Logger.Logger<unknown, O> =>
  Logger.mapInputOptions(logger, (options) => {
    const context = FiberRefs.getOrDefault(options.context, FiberRef.currentContext)
    const span = Context.getOption(context, Tracer.ParentSpan)
    if (Option.isNone(span)) return options
    return {
      ...options,
      annotations: HashMap.set(HashMap.set(options.annotations, "trace_id", span.value.traceId), "span_id", span.value.spanId)
    }
  })

/**
 * The server's logger: one structured line per entry (the pretty logger's several colored
 * lines cost more than a request), and entries below `level` never formatted at all.
 */
export const loggingLayer = (format: LogFormat, level: LogLevel.LogLevel, options: { readonly traceIds?: boolean } = {}) =>
  Layer.merge(
    Logger.replace(Logger.defaultLogger, options.traceIds === true ? withTraceIds(loggers[format]) : loggers[format]),
    Logger.minimumLogLevel(level)
  )
