import { defineWorkspace } from "vitest/config"

/**
 * Timeouts only catch hangs: vitest's defaults (5 s per test, 10 s per hook) fail a file
 * whose server layer takes longer to start on a busy machine, skipping all its tests.
 */
const catchHangsOnly = { testTimeout: 180_000, hookTimeout: 180_000 }

export default defineWorkspace(["api", "client", "connectors", "engine", "sandbox", "server"].map((name) => ({
  extends: `./packages/${name}/vitest.config.ts`,
  test: { root: `./packages/${name}`, ...catchHangsOnly }
})))
