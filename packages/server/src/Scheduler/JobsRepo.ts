import { SqlClient } from "@effect/sql"
import { type Duration, Effect } from "effect"
import * as EffectDuration from "effect/Duration"

export class JobsRepo extends Effect.Service<JobsRepo>()("Switchyard/JobsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Claims the current run of a cluster-wide job: true for exactly one process per period,
     * because claiming moves `next_run_at` forward in the same statement that checks it.
     */
    const claim = (name: string, every: Duration.Duration) =>
      Effect.gen(function*() {
        yield* sql`INSERT INTO scheduled_jobs (name, next_run_at) VALUES (${name}, now()) ON CONFLICT (name) DO NOTHING`
        const seconds = EffectDuration.toSeconds(every)
        const claimed = yield* sql`
          UPDATE scheduled_jobs SET next_run_at = now() + make_interval(secs => ${seconds}), last_run_at = now()
          WHERE name = ${name} AND next_run_at <= now()
          RETURNING name`
        return claimed.length > 0
      }).pipe(Effect.orDie)

    const recordError = (name: string, error: string | null) =>
      sql`UPDATE scheduled_jobs SET last_error = ${error} WHERE name = ${name}`.pipe(Effect.asVoid, Effect.orDie)

    return { claim, recordError } as const
  })
}) {}
