import { SqlClient } from "@effect/sql"
import { type Duration, Effect, Option } from "effect"
import * as EffectDuration from "effect/Duration"

export class JobsRepo extends Effect.Service<JobsRepo>()("Switchyard/JobsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Claims the current run of a cluster-wide job for exactly one process per period, because
     * claiming moves `next_run_at` forward in the same statement that checks it. The claim's
     * start as the database's clock has it (ISO, to the microsecond), or none when another
     * process has this period: successive starts are at least `every` apart.
     */
    const claim = (name: string, every: Duration.Duration) =>
      Effect.gen(function*() {
        yield* sql`INSERT INTO scheduled_jobs (name, next_run_at) VALUES (${name}, now()) ON CONFLICT (name) DO NOTHING`
        const seconds = EffectDuration.toSeconds(every)
        const claimed = yield* sql<{ started_at: string }>`
          UPDATE scheduled_jobs SET next_run_at = now() + make_interval(secs => ${seconds}), last_run_at = now()
          WHERE name = ${name} AND next_run_at <= now()
          RETURNING to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started_at`
        return Option.map(Option.fromNullable(claimed[0]), (row) => row.started_at)
      }).pipe(Effect.orDie)

    const recordError = (name: string, error: string | null) =>
      sql`UPDATE scheduled_jobs SET last_error = ${error} WHERE name = ${name}`.pipe(Effect.asVoid, Effect.orDie)

    return { claim, recordError } as const
  })
}) {}
