import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { builtinConnectorSources, CONNECTORS_DIR } from "@switchyard/connectors"
import { parseConnector, verificationDocuments } from "@switchyard/engine"
import { Cause, Effect, Either, Exit, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ConnectorRegistry } from "../src/features/connectors/ConnectorRegistry.js"
import { TestDatabase } from "./support/TestServer.js"

const Registry = ConnectorRegistry.Default.pipe(Layer.provideMerge(TestDatabase()))

const PROVIDER_DOCUMENTS_DIR = Path.join(CONNECTORS_DIR, "..", "provider-documents")

/** A shipped file as an earlier release had it: without its `info.verification` block. */
const withoutVerificationBlock = (yaml: string) => yaml.replace(/^ {2}verification:\n(?: {4}.*\n)+/m, "")

layer(Registry)("built-in connectors", (it) => {
  it.effect("load idempotently and refuse a shipped version whose content changed", () =>
    Effect.gen(function*() {
      const registry = yield* ConnectorRegistry
      const sources = builtinConnectorSources()
      expect(sources.map((s) => Path.basename(Path.dirname(s.file)) + "@" + Path.basename(s.file, ".yaml"))).toEqual([
        "ashby@1.0.0",
        "bamboohr@1.0.0",
        "bamboohr@1.1.0",
        "bamboohr@1.2.0",
        "bamboohr@1.3.0",
        "bamboohr@1.4.0",
        "bamboohr@1.5.0",
        "deel@1.0.0",
        "deel@1.1.0",
        "factorial@1.0.0",
        "factorial@1.1.0",
        "factorial@1.2.0",
        "greenhouse@1.0.0",
        "greenhouse@1.1.0",
        "greenhouse@1.2.0",
        "greenhouse@1.3.0",
        "greenhouse@1.4.0",
        "gusto@1.0.0",
        "gusto@1.1.0",
        "hibob@1.0.0",
        "hibob@1.1.0",
        "lever@1.0.0",
        "lever@1.1.0",
        "litmos@1.0.0",
        "litmos@1.1.0",
        "litmos@1.2.0",
        "namely@1.0.0",
        "namely@1.1.0",
        "paylocity@1.0.0",
        "personio@1.0.0",
        "personio@1.1.0",
        "personio_recruiting@1.0.0",
        "personio_recruiting@1.1.0",
        "recruitee@1.0.0",
        "recruitee@1.1.0",
        "rippling@1.0.0",
        "rippling@1.1.0",
        "rippling@1.2.0",
        "smartrecruiters@1.0.0",
        "successfactors@1.0.0",
        "successfactors@1.1.0",
        "talentlms@1.0.0",
        "talentlms@1.1.0",
        "talentlms@1.2.0",
        "talentlms@1.3.0",
        "teamtailor@1.0.0",
        "thinkific@1.0.0",
        "thinkific@1.1.0",
        "thinkific@1.2.0",
        "workable@1.0.0",
        "workday@1.0.0"
      ])
      expect((yield* registry.registerBuiltins(sources)).added).toBe(51)
      expect((yield* registry.registerBuiltins(sources)).added).toBe(0)

      const edited = sources.map((source) =>
        source.file.endsWith("greenhouse/1.0.0.yaml")
          ? { ...source, yaml: source.yaml.replace("Applications, newest first, in pages", "Edited in place") }
          : source
      )
      const exit = yield* Effect.exit(registry.registerBuiltins(edited))
      expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain(
        "built-in connector greenhouse@1.0.0 differs from the stored one"
      )
    }))

  it.effect("a stored version takes the shipped file's verification, which is outside the content hash", () =>
    Effect.gen(function*() {
      const registry = yield* ConnectorRegistry
      const sql = yield* SqlClient.SqlClient
      const stored = () =>
        sql<{ readonly verification: unknown; readonly content_hash: string }>`
          SELECT definition #> '{info,verification}' AS verification, content_hash FROM connector_versions
          WHERE owner_project_id IS NULL AND key = 'greenhouse' AND version = '1.0.0'`.pipe(Effect.map((rows) => rows[0]!))
      const sources = builtinConnectorSources()
      const older = sources.map((source) => ({ ...source, yaml: withoutVerificationBlock(source.yaml) }))
      expect(older.every((source, i) => source.yaml !== sources[i]!.yaml)).toBe(true)

      // a database that an earlier release (no verification blocks) filled starts, and is updated
      expect((yield* registry.registerBuiltins(older)).added).toBe(0)
      const before = yield* stored()
      expect(before.verification).toBeNull()
      expect((yield* registry.registerBuiltins(sources)).added).toBe(0)
      const after = yield* stored()
      expect(after.content_hash).toBe(before.content_hash)
      expect(after.verification).toMatchObject({ level: "documentation", sources: expect.arrayContaining([expect.stringMatching(/^https:/)]) })
    }))

  it("every shipped version says how it is verified, and what it cites exists", () => {
    for (const source of builtinConnectorSources()) {
      const verification = Either.getOrThrow(parseConnector(source.yaml)).definition.info.verification
      const where = Path.relative(CONNECTORS_DIR, source.file)
      expect(verification, `${where} has no info.verification`).toBeDefined()
      if (verification!.level === "contract") {
        // the documents the connector was checked against ship in the repository, each with where it came from
        const documents = verificationDocuments(verification)
        expect(documents.length, where).toBeGreaterThan(0)
        for (const name of documents) {
          const document = Path.join(PROVIDER_DOCUMENTS_DIR, name)
          expect(Fs.existsSync(document), `${where}: ${document} is missing`).toBe(true)
          const source = Path.join(Path.dirname(document), "SOURCE.md")
          expect(Fs.existsSync(source), `${where}: no SOURCE.md beside ${document}`).toBe(true)
          expect(Fs.readFileSync(source, "utf8"), `${where}: SOURCE.md does not name ${Path.basename(document)}`)
            .toContain(`\`${Path.basename(document)}\``)
        }
      }
      if (verification!.level === "documentation") {
        expect(verification!.sources!.length, where).toBeGreaterThan(0)
        for (const page of verification!.sources!) expect(page, where).toMatch(/^https:\/\/[^/]+\//)
      }
    }
  })

  it("every shipped version needs a changelog entry", () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-builtins-"))
    Fs.mkdirSync(Path.join(dir, "acme"))
    Fs.writeFileSync(Path.join(dir, "acme", "1.0.0.yaml"), "StackOne: 1.0.0\n")
    Fs.writeFileSync(Path.join(dir, "acme", "changelog.yaml"), "[]\n")
    expect(() => builtinConnectorSources(dir)).toThrow("no entry for version 1.0.0")
  })
})
