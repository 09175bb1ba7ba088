import { Layer, Logger, type LogLevel } from "effect"

export type LogFormat = "logfmt" | "json" | "pretty"

const loggers: Record<LogFormat, Logger.Logger<unknown, unknown>> = {
  logfmt: Logger.withConsoleLog(Logger.logfmtLogger),
  json: Logger.withConsoleLog(Logger.jsonLogger),
  pretty: Logger.prettyLoggerDefault
}

/**
 * The server's logger: one structured line per entry (the pretty logger's several colored
 * lines cost more than a request), and entries below `level` never formatted at all.
 */
export const loggingLayer = (format: LogFormat, level: LogLevel.LogLevel) =>
  Layer.merge(Logger.replace(Logger.defaultLogger, loggers[format]), Logger.minimumLogLevel(level))
