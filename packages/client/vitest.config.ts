import { defineProject } from "vitest/config"

/**
 * Tests run on the TypeScript sources: the "switchyard-source" export condition resolves each
 * workspace package to its src/index.ts, never to a build in dist/ that may be missing or stale.
 */
export default defineProject({
  ssr: { resolve: { conditions: ["switchyard-source"] } },
  test: { name: "client", include: ["test/**/*.test.ts"] }
})
