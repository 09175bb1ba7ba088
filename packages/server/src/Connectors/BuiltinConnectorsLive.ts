import { builtinConnectorSources } from "@switchyard/connectors"
import { Effect, Layer } from "effect"
import { ConnectorRegistry } from "./ConnectorRegistry.js"

/** Registers the shipped built-in connector versions at start (idempotent). */
export const BuiltinConnectorsLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const registry = yield* ConnectorRegistry
    const sources = yield* Effect.try(() => builtinConnectorSources()).pipe(Effect.orDie)
    const added = yield* registry.registerBuiltins(sources)
    if (added > 0) yield* Effect.logInfo(`registered ${added} built-in connector version(s)`)
  })
).pipe(Layer.provide(ConnectorRegistry.Default))
