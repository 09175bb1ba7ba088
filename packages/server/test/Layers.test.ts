import { describe, expect, it } from "@effect/vitest"
import { cruise, type IReporterOutput } from "dependency-cruiser"
import extractDepcruiseConfig from "dependency-cruiser/config-utl/extract-depcruise-config"
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/*
 * The server's layers hold (packages/server/.dependency-cruiser.cjs): app → edge → features →
 * platform, no import running up, no cycle between folders. Read from the imports, types
 * included, of every module under src/.
 */

const SERVER = Path.resolve(fileURLToPath(import.meta.url), "../..")

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
    const accountsHttp = result.output.modules.find((module) => module.source === "src/Accounts/Http.ts")
    expect(accountsHttp?.dependencies.map((dependency) => dependency.resolved)).toContain("src/Accounts/Accounts.ts")
    const violations = summary.violations.map((violation) =>
      `${violation.rule.name}: ${violation.from} → ${violation.to}${
        violation.cycle === undefined ? "" : ` (cycle ${violation.cycle.map((step) => step.name).join(" → ")})`
      }`
    )
    expect(violations).toEqual([])
  })
})
