import { defineProject } from "vitest/config"

/**
 * Tests run on the TypeScript sources: the "switchyard-source" export condition resolves each
 * workspace package to its src/index.ts, never to a build in dist/ that may be missing or stale.
 * The exception is the process tests' server and CLI, which run the build the global setup
 * makes once per run (test/support/buildServerOnce.ts); the schema, too, is migrated once
 * per run (test/support/migratedDatabase.ts).
 */
export default defineProject({
  ssr: { resolve: { conditions: ["switchyard-source"] } },
  test: { name: "server", include: ["test/**/*.test.ts"], globalSetup: ["test/support/buildServerOnce.ts", "test/support/migratedDatabase.ts"] }
})
