import { expect, layer } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { Cause, Effect, Exit, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ConnectorRegistry } from "../src/Connectors/ConnectorRegistry.js"
import { TestDatabase } from "./support/TestServer.js"

const Registry = ConnectorRegistry.Default.pipe(Layer.provideMerge(TestDatabase()))

layer(Registry)("built-in connectors", (it) => {
  it.effect("load idempotently and refuse a shipped version whose content changed", () =>
    Effect.gen(function*() {
      const registry = yield* ConnectorRegistry
      const sources = builtinConnectorSources()
      expect(sources.map((s) => Path.basename(Path.dirname(s.file)) + "@" + Path.basename(s.file, ".yaml"))).toEqual([
        "bamboohr@1.0.0",
        "bamboohr@1.1.0",
        "bamboohr@1.2.0",
        "greenhouse@1.0.0",
        "greenhouse@1.1.0",
        "greenhouse@1.2.0",
        "greenhouse@1.3.0",
        "lever@1.0.0",
        "talentlms@1.0.0",
        "talentlms@1.1.0",
        "talentlms@1.2.0"
      ])
      expect((yield* registry.registerBuiltins(sources)).added).toBe(11)
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

  it("every shipped version needs a changelog entry", () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-builtins-"))
    Fs.mkdirSync(Path.join(dir, "acme"))
    Fs.writeFileSync(Path.join(dir, "acme", "1.0.0.yaml"), "StackOne: 1.0.0\n")
    Fs.writeFileSync(Path.join(dir, "acme", "changelog.yaml"), "[]\n")
    expect(() => builtinConnectorSources(dir)).toThrow("no entry for version 1.0.0")
  })
})
