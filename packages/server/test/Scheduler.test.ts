import { describe, expect, it, layer, vi } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Context, Duration, Effect, Either, Layer, Option } from "effect"
import { SwitchyardConfig } from "../src/platform/Config.js"
import { CLUSTER_JOB_DEFAULT_SECONDS } from "../src/platform/jobs/ClusterJobPeriods.js"
import { JobsRepo } from "../src/platform/jobs/JobsRepo.js"
import { ServerInstance } from "../src/platform/fleet/ServerInstance.js"
import { TestDatabase, testConfig } from "./support/TestServer.js"

layer(JobsRepo.Default.pipe(Layer.provideMerge(TestDatabase())))("scheduled job claims", (it) => {
  it.effect("one claimant wins each period of a cluster job, however many race", () =>
    Effect.gen(function*() {
      const jobs = yield* JobsRepo
      const sql = yield* SqlClient.SqlClient
      const racers = yield* Effect.all(
        Array.from({ length: 8 }, () => jobs.claim("race_job", Duration.hours(1))),
        { concurrency: 8 }
      )
      const winners = racers.filter(Option.isSome)
      expect(winners).toHaveLength(1)
      expect(winners[0]!.value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
      expect(yield* jobs.claim("race_job", Duration.hours(1))).toEqual(Option.none())
      // The next period opens once next_run_at has passed.
      yield* sql`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = 'race_job'`
      expect(Option.isSome(yield* jobs.claim("race_job", Duration.hours(1)))).toBe(true)
      yield* jobs.recordError("race_job", "boom")
      const [row] = yield* sql<{ last_error: string | null }>`SELECT last_error FROM scheduled_jobs WHERE name = 'race_job'`
      expect(row!.last_error).toBe("boom")
    }))
})

describe("cluster job periods (SWITCHYARD_JOB_PERIODS)", () => {
  const periodsOf = (environment: Record<string, string>) =>
    Effect.map(SwitchyardConfig, (config) => config.clusterJobPeriods).pipe(
      Effect.provide(SwitchyardConfig.Default.pipe(Layer.provide(Layer.setConfigProvider(testConfig(undefined, environment))))),
      Effect.either
    )

  it.effect("each job keeps its default unless named; named ones take their seconds", () =>
    Effect.gen(function*() {
      expect(yield* periodsOf({})).toEqual(Either.right(CLUSTER_JOB_DEFAULT_SECONDS))
      expect(yield* periodsOf({ SWITCHYARD_JOB_PERIODS: " request_log_retention=60 , expire_idempotency_keys=5" })).toEqual(
        Either.right({ ...CLUSTER_JOB_DEFAULT_SECONDS, request_log_retention: 60, expire_idempotency_keys: 5 })
      )
    }))

  it.effect("an unknown job, a missing or out-of-range period is refused with the setting's name and the jobs", () =>
    Effect.gen(function*() {
      for (const value of ["request_log_retension=60", "request_log_retention", "request_log_retention=0", "expire_idempotency_keys=1.5", "webhook_event_retention=604801"]) {
        const either = yield* periodsOf({ SWITCHYARD_JOB_PERIODS: value })
        expect(Either.isLeft(either), value).toBe(true)
        const message = Either.isLeft(either) ? String(either.left) : ""
        expect(message).toContain("SWITCHYARD_JOB_PERIODS")
        expect(message).toContain("expire_idempotency_keys, request_log_retention")
      }
    }))
})

layer(ServerInstance.Default.pipe(Layer.provideMerge(TestDatabase())))("a process's own standing", (it) => {
  it.effect("a heartbeat on time keeps it; one after a silence longer than three heartbeats, or a lost row, counts a lapse", () =>
    Effect.gen(function*() {
      const instance = yield* ServerInstance
      const sql = yield* SqlClient.SqlClient
      const start = instance.lapseMark()
      yield* instance.heartbeat
      expect(instance.mayHaveLapsedSince(start)).toBe(false)

      // silent for longer than others wait before they take its claims over
      yield* sql`UPDATE server_instances SET heartbeat_at = now() - make_interval(secs => ${instance.silenceSeconds + 1}) WHERE id = ${instance.id}`
      yield* instance.heartbeat
      expect(instance.mayHaveLapsedSince(start)).toBe(true)
      const afterSilence = instance.lapseMark()
      yield* instance.heartbeat
      expect(instance.mayHaveLapsedSince(afterSilence)).toBe(false)

      // its row removed (as a stale one by another process): registered again, as lapsed
      yield* sql`DELETE FROM server_instances WHERE id = ${instance.id}`
      yield* instance.heartbeat
      expect(instance.mayHaveLapsedSince(afterSilence)).toBe(true)
      expect(yield* sql`SELECT 1 FROM server_instances WHERE id = ${instance.id}`).toHaveLength(1)
    }))
})

layer(TestDatabase())("a process's registration", (it) => {
  it.scoped("counts its silence from when the registration began, however long it took to finish", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Effect.acquireRelease(
        Effect.sync(() => vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })),
        () => Effect.sync(() => vi.useRealTimers())
      )
      // a minute passes for the process (stalled, starved of CPU) within its registration's
      // transaction: the row's heartbeat_at is the transaction's start, a minute before it finished
      const stalling: SqlClient.SqlClient = Object.assign((...args: Parameters<SqlClient.SqlClient>) => sql(...args), sql, {
        withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          sql.withTransaction(Effect.tap(effect, () => Effect.sync(() => vi.setSystemTime(Date.now() + 60_000))))
      })
      const instance = yield* Layer.build(ServerInstance.Default).pipe(
        Effect.map(Context.get(ServerInstance)),
        Effect.provideService(SqlClient.SqlClient, stalling)
      )

      // other processes see its row silent for a minute: it must not count itself alive since it finished
      expect(instance.mayHaveLapsedSince(instance.lapseMark())).toBe(true)
      yield* instance.heartbeat
      expect(instance.mayHaveLapsedSince(instance.lapseMark())).toBe(false)
    }))
})
