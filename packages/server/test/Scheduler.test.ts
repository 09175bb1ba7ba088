import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer } from "effect"
import { JobsRepo } from "../src/Scheduler/JobsRepo.js"
import { TestDatabase } from "./support/TestServer.js"

layer(JobsRepo.Default.pipe(Layer.provideMerge(TestDatabase())))("scheduled job claims", (it) => {
  it.effect("one claimant wins each period of a cluster job, however many race", () =>
    Effect.gen(function*() {
      const jobs = yield* JobsRepo
      const sql = yield* SqlClient.SqlClient
      const racers = yield* Effect.all(
        Array.from({ length: 8 }, () => jobs.claim("race_job", Duration.hours(1))),
        { concurrency: 8 }
      )
      expect(racers.filter(Boolean)).toHaveLength(1)
      expect(yield* jobs.claim("race_job", Duration.hours(1))).toBe(false)
      // The next period opens once next_run_at has passed.
      yield* sql`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = 'race_job'`
      expect(yield* jobs.claim("race_job", Duration.hours(1))).toBe(true)
      yield* jobs.recordError("race_job", "boom")
      const [row] = yield* sql<{ last_error: string | null }>`SELECT last_error FROM scheduled_jobs WHERE name = 'race_job'`
      expect(row!.last_error).toBe("boom")
    }))
})
