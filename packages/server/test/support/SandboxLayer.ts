import { type Sandbox, startSandbox } from "@switchyard/sandbox"
import { Context, Effect, Layer } from "effect"

export class SandboxProviders extends Context.Tag("Test/SandboxProviders")<SandboxProviders, Sandbox>() {}

/** The simulated providers as real servers on loopback for the layer's lifetime. */
export const SandboxLive = (seed = 7) =>
  Layer.scoped(
    SandboxProviders,
    Effect.acquireRelease(
      Effect.promise(() => startSandbox({ seed })),
      (sandbox) => Effect.promise(() => sandbox.close())
    )
  )
