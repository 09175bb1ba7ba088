import { builtinConnectorSources } from "@switchyard/connectors"
import { Effect, Layer } from "effect"
import { logBuiltinUnifiedCoverage } from "./unifiedCoverage.js"
import { ConnectorRegistry } from "./ConnectorRegistry.js"

/** Registers the shipped built-in connector versions at start (idempotent) and says which actions no unified endpoint runs. */
export const BuiltinConnectorsLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const registry = yield* ConnectorRegistry
    const sources = yield* Effect.try(() => builtinConnectorSources()).pipe(Effect.orDie)
    const { added, definitions } = yield* registry.registerBuiltins(sources)
    if (added > 0) yield* Effect.logInfo(`registered ${added} built-in connector version(s)`)
    yield* logBuiltinUnifiedCoverage(definitions)
  })
).pipe(Layer.provide(ConnectorRegistry.Default))
