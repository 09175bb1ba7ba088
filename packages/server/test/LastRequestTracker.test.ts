import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, TestClock } from "effect"
import { AccountsRepo } from "../src/features/accounts/AccountsRepo.js"
import { LastRequestTracker } from "../src/features/accounts/LastRequestTracker.js"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { ProjectsRepo } from "../src/features/projects/ProjectsRepo.js"
import { SchedulerLive } from "../src/app/SchedulerLive.js"
import { TestDatabase } from "./support/TestServer.js"

const Services = SchedulerLive.pipe(
  Layer.provideMerge(Layer.mergeAll(LastRequestTracker.Default, AccountsRepo.Default, ProjectsRepo.Default, RequestLog.Default)),
  Layer.provideMerge(TestDatabase({ SWITCHYARD_LAST_REQUEST_FLUSH_SECONDS: "5" }))
)

layer(Services)("LastRequestTracker driven by the scheduler", (it) => {
  it.effect("writes pending activity on its schedule, in one statement, never moving time backwards", () =>
    Effect.gen(function*() {
      const projects = yield* ProjectsRepo
      const accounts = yield* AccountsRepo
      const tracker = yield* LastRequestTracker
      const sql = yield* SqlClient.SqlClient
      const organization = yield* projects.createOrganization("Org")
      const project = yield* projects.createProject(organization.id, "Project")
      const insert = (id: string) =>
        accounts.insert({
          id,
          project_id: project.id,
          name: id,
          owner_id: "o",
          owner_name: null,
          owner_username: null,
          connector_key: "k",
          connector_version: null,
          connector_profile_id: null,
          settings: {},
          label: null,
          metadata: null,
          linked_via: "api",
          connect_session_id: null,
          auth_method: null,
          credentials_ciphertext: "x",
          credentials_key_id: "k"
        })
      yield* insert("acc-1")
      yield* insert("acc-2")
      const stored = sql<{ id: string; at: Date | null }>`
        SELECT id, last_request_at AS at FROM accounts WHERE project_id = ${project.id} ORDER BY id`

      yield* tracker.touch("acc-1")
      yield* tracker.touch("acc-2")
      expect((yield* stored).map((row) => row.at)).toEqual([null, null])

      yield* TestClock.adjust("5 seconds")
      // The flush runs on the database's own pace: poll briefly for it.
      const flushed = yield* stored.pipe(
        Effect.repeat({ until: (rows) => rows.every((row) => row.at !== null), times: 100 })
      )
      expect(flushed.every((row) => row.at !== null)).toBe(true)

      const later = new Date(Date.now() + 60_000)
      yield* accounts.recordLastRequests([["acc-1", later]])
      yield* accounts.recordLastRequests([["acc-1", new Date(0)]])
      const [first] = yield* stored
      expect(first!.at!.toISOString()).toBe(later.toISOString())
    }))
})
