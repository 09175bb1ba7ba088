import { expect, layer } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { ConnectorParseError, parseConnector } from "@switchyard/engine"
import { Effect, Either } from "effect"
import { threadId } from "node:worker_threads"
import { ConnectorParser } from "../src/features/connectors/ConnectorParser.js"

/*
 * Uploaded YAML is read on a worker thread (issue 10: a large document held the event
 * loop): its answers must be exactly what parsing on the main thread gives.
 */

const wide = (entries: number) =>
  [
    "StackOne: 1.0.0",
    "info: {title: Wide, key: wide, version: 1.0.0}",
    "actions: []",
    "scopeDefinitions:",
    ...Array.from({ length: entries }, (_, i) => `  s${i}: 1`)
  ].join("\n") + "\n"

layer(ConnectorParser.Default)("connector parser", (it) => {
  it.effect("reads every built-in connector on a worker thread, as parseConnector does on this one", () =>
    Effect.gen(function*() {
      const parser = yield* ConnectorParser
      for (const source of builtinConnectorSources()) {
        const here = Either.getOrThrow(parseConnector(source.yaml))
        const there = yield* parser.parse(source.yaml)
        expect(there.threadId).not.toBe(threadId)
        expect({ file: source.file, hash: there.contentHash }).toEqual({ file: source.file, hash: here.contentHash })
        expect(there.canonical).toBe(here.canonical)
        expect(there.definition).toEqual(here.definition)
        // the same expressions, compiled from the same text (the canonical form orders keys)
        expect(new Map([...there.compiled].map(([path, compiled]) => [path, compiled.source])))
          .toEqual(new Map([...here.compiled].map(([path, compiled]) => [path, compiled.source])))
      }
    }))

  it.effect("refuses what parseConnector refuses, with the same issues and positions, and keeps serving", () =>
    Effect.gen(function*() {
      const parser = yield* ConnectorParser
      for (const yaml of [wide(30_000), "a: 1\na: 2\n", `a: ${"[".repeat(20_000)}\n`, "{{"]) {
        const expected = parseConnector(yaml)
        const refused = yield* Effect.flip(parser.parse(yaml))
        expect(refused).toBeInstanceOf(ConnectorParseError)
        expect(Either.isLeft(expected) && refused.issues).toEqual(Either.isLeft(expected) && expected.left.issues)
        expect(refused.message).toBe(Either.isLeft(expected) && expected.left.message)
      }
      expect((yield* parser.parse(builtinConnectorSources()[0]!.yaml)).definition.info.key).toBeTypeOf("string")
    }))

  it.effect("answers concurrent uploads each with its own result", () =>
    Effect.gen(function*() {
      const parser = yield* ConnectorParser
      const sources = builtinConnectorSources()
      const results = yield* Effect.forEach(
        [...sources, ...sources].map((source, i) => (i % 2 === 0 ? source.yaml : `${source.yaml}\nbroken: [\n`)),
        (yaml) => Effect.either(parser.parse(yaml)),
        { concurrency: "unbounded" }
      )
      results.forEach((result, i) => expect(Either.isRight(result)).toBe(i % 2 === 0))
    }))
})
