import { Data, Layer } from "effect"
import { ApiKeys } from "../../features/auth/ApiKeys.js"
import { SwitchyardConfig } from "../../platform/Config.js"
import { ProjectsRepo } from "../../features/projects/ProjectsRepo.js"
import { SqlShared } from "../../platform/database/Sql.js"

/** Input that parsed but makes no sense against the database (an unknown id, a missing name). */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/**
 * The database the server uses. Commands provide it to their own handler, so that --help,
 * --version and --completions answer without opening it.
 */
export const DatabaseLive = Layer.mergeAll(ProjectsRepo.Default, ApiKeys.Default).pipe(
  Layer.provide(SqlShared),
  Layer.provide(SwitchyardConfig.Default)
)

/** Rows as aligned columns under their keys; "(none)" for no rows. */
export const table = (rows: ReadonlyArray<Record<string, string>>) => {
  if (rows.length === 0) return "(none)"
  const headers = Object.keys(rows[0]!)
  const widths = headers.map((header) => Math.max(header.length, ...rows.map((row) => row[header]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(headers), ...rows.map((row) => line(headers.map((header) => row[header]!)))].join("\n")
}
