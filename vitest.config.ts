import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

/**
 * The run's own settings; the projects are in vitest.workspace.ts.
 *
 * Workers: one per core and one more. Vitest's default (one fewer than the cores) ran the
 * whole suite on a single worker on a 2-core machine, though most of a test file's time is
 * spent waiting on sockets, databases and child processes rather than on its own CPU
 * (the whole suite on PostgreSQL: 1,776 s on one worker, 590 s on three, the cores then busy
 * 90% of the time).
 */
export default defineConfig({
  test: { maxWorkers: availableParallelism() + 1, minWorkers: 1 }
})
