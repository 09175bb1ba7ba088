import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { runCli } from "./support/ServerProcess.js"

/*
 * `switchyard connectors check` as a connector author runs it: a connector file and a
 * provider's document in, one line per action and pass out, exit code 0 or 1. It needs no
 * server and no database: the command starts its own, in memory.
 */

const CONNECTORS = Path.resolve(import.meta.dirname, "../../connectors")
const connectorFile = (name: string) => Path.join(CONNECTORS, "connectors", name)
const BAMBOOHR_DOCUMENT = Path.join(CONNECTORS, "provider-documents/bamboohr/public.yaml")

/** The environment of a user's shell, without a database the command could reach by mistake. */
const environment = () => {
  const { DATABASE_URL: _database, ...rest } = process.env
  return { ...rest, SWITCHYARD_DATA_DIR: Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-check-")) }
}

describe("switchyard connectors check", () => {
  it("passes BambooHR 1.3.0 against BambooHR's document, one line per action and pass", async () => {
    const { code, output } = await runCli(
      ["connectors", "check", connectorFile("bamboohr/1.3.0.yaml"), "--openapi", BAMBOOHR_DOCUMENT, "--seed", "3"],
      environment()
    )
    expect({ code, output }).toMatchObject({ code: 0 })
    expect(output).toContain("bamboohr@1.3.0: passed")
    for (const profile of ["full", "sparse"]) {
      expect(output).toMatch(new RegExp(`✓ seed 3 \\(${profile}\\): hris_update_employee \\(unified\\): requests valid 2/2`))
    }
    expect(output.match(/✓ seed 3 \((full|sparse)\): hris_/g)).toHaveLength(10)
  })

  it("fails BambooHR 1.2.0, naming the requests the document refuses, and refuses what it cannot read", async () => {
    const failed = await runCli(
      ["connectors", "check", connectorFile("bamboohr/1.2.0.yaml"), "--openapi", BAMBOOHR_DOCUMENT, "--seed", "1"],
      environment()
    )
    expect(failed.code).toBe(1)
    expect(failed.output).toContain("bamboohr@1.2.0: FAILED")
    expect(failed.output).toContain(
      "GET /api/gateway.php/variable/v1/employees/directory → 404: request: Route not resolved, no path matched"
    )

    const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-check-input-"))
    const notOpenApi = Path.join(directory, "notes.yaml")
    Fs.writeFileSync(notOpenApi, "title: my notes\n")
    const refused = await runCli(
      ["connectors", "check", connectorFile("bamboohr/1.3.0.yaml"), "--openapi", notOpenApi],
      environment()
    )
    expect(refused.code).toBe(1)
    expect(refused.output).toContain("is not an OpenAPI document: it has no `openapi: 3.x` or `swagger: \"2.0\"` field")

    const broken = Path.join(directory, "broken.yaml")
    Fs.writeFileSync(broken, "StackOne: 1.0.0\ninfo: {title: X}\n")
    const unparsed = await runCli(["connectors", "check", broken, "--openapi", BAMBOOHR_DOCUMENT], environment())
    expect(unparsed.code).toBe(1)
    expect(unparsed.output).toContain(`switchyard: ${broken}:`)
  })
})
