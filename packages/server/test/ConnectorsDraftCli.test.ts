import { describe, expect, it } from "@effect/vitest"
import { parseConnector } from "@switchyard/engine"
import { Either } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { runCli, serverEnv } from "./support/ServerProcess.js"

/*
 * `switchyard connectors draft` as an operator runs it: a provider's OpenAPI document from a
 * file, the connector into --out (or standard output) and the review summary on standard
 * error; a refusal says why, with the usage and exit code 1. It needs no database: the
 * environment names one nobody listens on.
 */

const USAGE = "Usage: switchyard <command>"

// DATABASE_URL names a port nobody listens on: drafting must not open a database
const offline = serverEnv(Os.tmpdir(), 1, { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" })

const document = [
  "openapi: 3.0.3",
  "info: {title: Tiny HR, version: '1'}",
  "servers: [{url: 'https://api.tinyhr.example/v1'}]",
  "components:",
  "  securitySchemes:",
  "    key: {type: apiKey, in: header, name: X-Key}",
  "    sso: {type: openIdConnect, openIdConnectUrl: 'https://sso.tinyhr.example/.well-known/openid-configuration'}",
  "paths:",
  "  /employees:",
  "    get:",
  "      parameters: [{name: page, in: query, schema: {type: integer}}, {name: per_page, in: query, schema: {type: integer}}]",
  "      responses:",
  "        '200':",
  "          description: ok",
  "          content:",
  "            application/json:",
  "              schema:",
  "                type: object",
  "                properties:",
  "                  employees:",
  "                    type: array",
  "                    items: {type: object, properties: {id: {type: string}, first_name: {type: string}, nickname: {type: string}}}",
  "                  total_pages: {type: integer}",
  "  /payslips/{id}:",
  "    get:",
  "      parameters: [{name: id, in: path, required: true, schema: {type: string}}]",
  "      responses: {'200': {description: ok}}",
  ""
].join("\n")

describe("switchyard connectors draft", () => {
  it("drafts from a file into --out, prints the review summary, and refuses what it cannot draft", async () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-draft-"))
    try {
      const source = Path.join(dir, "tiny-hr.yaml")
      const out = Path.join(dir, "tiny-hr.connector.yaml")
      Fs.writeFileSync(source, document)

      const drafted = await runCli(["connectors", "draft", "--openapi", source, "--out", out, "--key", "tiny_hr"], offline)
      expect({ code: drafted.code, output: drafted.output }).toMatchObject({ code: 0 })
      for (
        const line of [
          `drafted ${out} from ${source}: category hris (inferred: the paths match 1 HRIS, 0 ATS, 1 LMS unified actions (give --category to choose))`,
          "  actions matched to unified operations: 1",
          "  RPC actions for the other operations:  1",
          "  fields mapped: 3, for review: 1,",
          "  authentication methods: 1, security schemes not understood: 1",
          "    not understood: security scheme sso (openIdConnect https://sso.tinyhr.example/.well-known/openid-configuration)"
        ]
      ) expect(drafted.output).toContain(line)
      const yaml = Fs.readFileSync(out, "utf8")
      const parsed = parseConnector(yaml)
      if (Either.isLeft(parsed)) throw new Error(`the draft does not parse: ${parsed.left.message}`)
      expect(parsed.right.definition.info).toMatchObject({ key: "tiny_hr", version: "0.1.0", categories: ["hris"] })
      expect(parsed.right.definition.actions.map((action) => action.actionId)).toEqual(["hris_list_employees", "get_payslips_by_id"])
      // the YAML went to the file, not to the terminal
      expect(drafted.output).not.toContain("StackOne: 1.0.0")

      // without --out the YAML is the standard output, and --category decides; --rpc none drafts no RPC action
      const printed = await runCli(["connectors", "draft", "--openapi", source, "--category", "lms", "--rpc", "none"], offline)
      expect(printed.code).toBe(0)
      expect(printed.output).toContain("StackOne: 1.0.0")
      expect(printed.output).toContain("categories: [lms]")
      expect(printed.output).toContain("drafted standard output from")
      expect(printed.output).toContain("  RPC actions for the other operations:  0")
      expect(printed.output).toContain("# not drafted (--rpc none): 1 other operation")

      // refusals: the reason, the usage, exit code 1, and no file written
      const notOpenApi = Path.join(dir, "package.json")
      Fs.writeFileSync(notOpenApi, JSON.stringify({ name: "x", version: "1.0.0" }))
      const noPaths = Path.join(dir, "empty.yaml")
      Fs.writeFileSync(noPaths, "openapi: 3.1.0\ninfo: {title: Empty, version: '1'}\npaths: {}\n")
      const refusedOut = Path.join(dir, "never.yaml")
      for (
        const [args, says] of [
          [["--openapi", notOpenApi], `switchyard: cannot draft from ${notOpenApi}: the document is not an OpenAPI description: it has no \`openapi\` field`],
          [["--openapi", noPaths], `switchyard: cannot draft from ${noPaths}: the document's paths are empty`],
          [["--openapi", Path.join(dir, "missing.yaml")], `switchyard: --openapi ${Path.join(dir, "missing.yaml")}: no such file`],
          [["--openapi", dir], `switchyard: --openapi ${dir}: not a file`],
          [["--openapi", source, "--key", "Tiny HR"], "switchyard: --key Tiny HR: a connector key is lowercase letters, digits, _ and - (at most 100)"],
          [["--openapi", source, "--category", "crm"], "Expected one of the following cases: hris, ats, lms"],
          [["--openapi", source, "--rpc", "some"], "Expected one of the following cases: all, reads, none"],
          [[], "Expected to find option: '--openapi'"]
        ] as const
      ) {
        const failed = await runCli(["connectors", "draft", ...args, "--out", refusedOut], offline)
        expect({ args, code: failed.code }).toEqual({ args, code: 1 })
        expect(failed.output).toContain(says)
        expect(failed.output).toContain(USAGE)
      }
      expect(Fs.existsSync(refusedOut)).toBe(false)
      const unknown = await runCli(["connectors", "teleport"], offline)
      expect({ code: unknown.code }).toEqual({ code: 1 })
      expect(unknown.output).toContain("Invalid subcommand for connectors - use one of 'check', 'draft', 'mock'")
    } finally {
      Fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
