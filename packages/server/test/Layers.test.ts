import { describe, expect, it } from "@effect/vitest"
import { cruise, type IReporterOutput } from "dependency-cruiser"
import extractDepcruiseConfig from "dependency-cruiser/config-utl/extract-depcruise-config"
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/*
 * The server's layers hold (packages/server/.dependency-cruiser.cjs): app → edge → features →
 * platform, no import running up, no cycle between folders. Read from the imports, types
 * included, of every module under src/. Two rules the import graph cannot show are read from
 * the sources: only the edge and the app name the API's HTTP errors, and each table is written
 * from one folder.
 */

const SERVER = Path.resolve(fileURLToPath(import.meta.url), "../..")
const SRC = Path.join(SERVER, "src")

/** Every TypeScript module under `dir`, as its path relative to src/. */
const modulesUnder = (dir: string): ReadonlyArray<string> =>
  Fs.readdirSync(Path.join(SRC, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => Path.join(dir, file))

/** The names a module imports from `@switchyard/api`, type-only imports included. */
const apiImports = (source: string): ReadonlyArray<string> =>
  [...source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"@switchyard\/api"/g)].flatMap((match) =>
    match[1]!.split(",").map((name) => name.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!).filter((name) => name !== "")
  )

/** The API's HTTP error classes (`Schema.TaggedError`s of packages/api/src/Errors.ts) and their union. */
const API_ERRORS = new Set([
  ...[...Fs.readFileSync(Path.join(SERVER, "../api/src/Errors.ts"), "utf8").matchAll(/export class (\w+)\s+extends Schema\.TaggedError/g)]
    .map((match) => match[1]!),
  "ApiError"
])

/** Tables the migrations create. */
const TABLES = modulesUnder("migrations").flatMap((file) =>
  [...Fs.readFileSync(Path.join(SRC, file), "utf8").matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map((match) => match[1]!.toLowerCase())
)

/** The folder (under src/) of each module whose SQL inserts into, updates or deletes from `table`. */
const writersOf = (table: string): ReadonlyArray<string> => {
  const write = new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${table}\\b`, "i")
  const folders = ["app", "edge", "features", "platform"].flatMap(modulesUnder)
    .filter((file) => write.test(Fs.readFileSync(Path.join(SRC, file), "utf8")))
    .map(Path.dirname)
  return [...new Set(folders)].sort()
}

const cruiseServer = async (): Promise<IReporterOutput> => {
  const config = await extractDepcruiseConfig(Path.join(SERVER, ".dependency-cruiser.cjs"))
  const tsConfig = extractTSConfig(Path.join(SERVER, "tsconfig.json"))
  // the rules' paths are relative to the server package
  return await cruise(
    ["src"],
    { ...config.options, baseDir: SERVER, validate: true, ruleSet: config } as never,
    { tsConfig: Path.join(SERVER, "tsconfig.json") } as never,
    { tsConfig } as never
  )
}

describe("the server's layers", () => {
  it("no import runs from a layer to one above it, and no folder cycle", { timeout: 120_000 }, async () => {
    const result = await cruiseServer()
    if (typeof result.output === "string") throw new Error("expected the cruise result as data")
    const { summary } = result.output
    // the cruise saw the whole server, and resolved its imports (an edge module reaches its feature)
    expect(summary.totalCruised).toBeGreaterThan(200)
    const accountsHttp = result.output.modules.find((module) => module.source === "src/edge/http/AccountsHttp.ts")
    expect(accountsHttp?.dependencies.map((dependency) => dependency.resolved)).toContain("src/features/accounts/Accounts.ts")
    const violations = summary.violations.map((violation) =>
      `${violation.rule.name}: ${violation.from} → ${violation.to}${
        violation.cycle === undefined ? "" : ` (cycle ${violation.cycle.map((step) => step.name).join(" → ")})`
      }`
    )
    expect(violations).toEqual([])
  })

  it("only the edge and the app name the API's HTTP errors: features and the platform fail with their own", () => {
    expect(API_ERRORS.size).toBeGreaterThan(15)
    expect(API_ERRORS).toContain("NotFound")
    const naming = ["features", "platform", "migrations"].flatMap(modulesUnder).flatMap((file) =>
      apiImports(Fs.readFileSync(Path.join(SRC, file), "utf8")).filter((name) => API_ERRORS.has(name)).map((name) => `${file}: ${name}`)
    )
    expect(naming).toEqual([])
    // the reading is live: the edge's mapping names them
    expect(apiImports(Fs.readFileSync(Path.join(SRC, "edge/toApiError.ts"), "utf8"))).toContain("NotFound")
  })

  it("each table is written from one folder", () => {
    expect(TABLES).toEqual(expect.arrayContaining(["accounts", "request_logs", "idempotency_keys", "webhook_deliveries"]))
    const shared = TABLES.map((table) => ({ table, writers: writersOf(table) })).filter(({ writers }) => writers.length > 1)
    expect(shared).toEqual([])
    // the reading is live: the request log's writer and reader share their folder
    expect(writersOf("request_logs")).toEqual(["features/requestLogs"])
    expect(writersOf("accounts")).toEqual(["features/accounts"])
  })
})
