import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import type { ListRequestLogsParams, RequestLogRecord, RequestLogsPage } from "@switchyard/api"
import { DateTime, Effect, Layer, TestClock } from "effect"
import * as Crypto from "node:crypto"
import { LastRequestTracker } from "../src/features/accounts/LastRequestTracker.js"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { SwitchyardConfig } from "../src/platform/Config.js"
import { ProjectsRepo } from "../src/features/projects/ProjectsRepo.js"
import { MAX_LOGGED_BODY_LENGTH } from "../src/platform/outboundHttp/loggedBody.js"
import { SchedulerLive } from "../src/app/SchedulerLive.js"
import { clientFor, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxBambooAccount, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestDatabase, TestServer } from "./support/TestServer.js"
import { expectErrorBody, send, withKey } from "./support/Wire.js"

const Server = Layer.merge(
  TestServer({
    SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
    SWITCHYARD_PUBLIC_URL: "https://switchyard.example.com",
    SWITCHYARD_REQUEST_LOG_RETENTION_DAYS: "30"
  }),
  SandboxLive(13)
)

/**
 * A fresh project whose log holds five runs against the sandbox: three RPC calls on a
 * Greenhouse account (one answered 400 by the provider), one unified list on it, and one
 * RPC write on a BambooHR account. Written through the batch writer's own flush.
 */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
  const hris = yield* project.client.accounts.create_account({
    payload: sandboxBambooAccount(sandbox, { connector_version: "1.0.0" })
  })
  sandbox.faults.clear()
  const rpc = (accountId: string, payload: { action: string; query?: Record<string, unknown>; path?: Record<string, unknown>; body?: unknown }) =>
    project.client.actions.rpc_action({ headers: { "x-account-id": accountId }, payload })

  const listed = yield* rpc(ats.id, { action: "ats_list_applications", query: { page_size: 2 } })
  const firstId = (listed.data as ReadonlyArray<{ id: string }>)[0]!.id
  yield* rpc(ats.id, { action: "ats_get_application", path: { id: firstId } })
  sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "status", status: 400, times: 1 })
  const refused = yield* Effect.flip(rpc(ats.id, { action: "ats_list_applications" }))
  expect(refused._tag).toBe("BadRequest")
  yield* project.client.unified_ats.ats_list_applications({
    headers: { "x-account-id": ats.id },
    urlParams: { page_size: 3 }
  })
  yield* rpc(hris.id, { action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Ada" } })
  yield* (yield* RequestLog).flush
  return { sandbox, project, ats, hris }
})

const listAll = (client: Effect.Effect.Success<ReturnType<typeof clientFor>>, params: ListRequestLogsParams = {}) =>
  Effect.gen(function*() {
    const seen: Array<RequestLogRecord> = []
    let next: string | null = null
    for (let pages = 0; pages < 50; pages++) {
      const page: RequestLogsPage = yield* client.request_logs.list_request_logs({
        urlParams: { ...params, ...(next === null ? {} : { next }) }
      })
      seen.push(...page.data)
      next = page.next
      if (next === null) break
    }
    expect(next).toBeNull()
    return seen
  })

const ids = (entries: ReadonlyArray<RequestLogRecord>) => entries.map((entry) => entry.request_id)

layer(Server, { excludeTestServices: true })("request logs API", (it) => {
  it.effect("lists the project's runs newest first in StackOne's shape", () =>
    Effect.gen(function*() {
      const { ats, hris, project } = yield* setup
      const page = yield* project.client.request_logs.list_request_logs({ urlParams: {} })
      expect(page.next).toBeNull()
      expect(page.data).toHaveLength(5)
      const times = page.data.map((entry) => Date.parse(entry.event_datetime))
      expect([...times].sort((a, b) => b - a)).toEqual(times)

      const [update, unified, refused] = page.data
      expect(update).toMatchObject({
        account_id: hris.id,
        provider: "bamboohr",
        action: "hris_update_employee",
        source_type: "rpc",
        http_method: "POST",
        path: "/actions/rpc",
        url: "https://switchyard.example.com/actions/rpc",
        status: 200,
        success: true,
        error_message: null
      })
      expect(update!.request_id).toMatch(/^[0-9a-f-]{36}$/)
      expect(update!.start_time).toBe(update!.event_datetime)
      expect(Date.parse(update!.end_time) - Date.parse(update!.start_time)).toBe(update!.duration)
      expect(unified).toMatchObject({
        account_id: ats.id,
        provider: "greenhouse",
        action: "ats_list_applications",
        source_type: "unified",
        http_method: "GET",
        path: "/unified/ats/applications",
        url: "https://switchyard.example.com/unified/ats/applications?page_size=3",
        status: 200,
        success: true
      })
      expect(refused).toMatchObject({ source_type: "rpc", status: 400, success: false, error_message: expect.any(String) })
      // the list view leaves the provider calls to the detail view
      expect(Object.keys(update!)).not.toContain("step_requests")
    }))

  it.effect("filters by account, provider, action, status, success, source, method, id and time", () =>
    Effect.gen(function*() {
      const { ats, hris, project } = yield* setup
      const list = (urlParams: ListRequestLogsParams) =>
        Effect.map(project.client.request_logs.list_request_logs({ urlParams }), (page) => page.data)
      expect(yield* list({ account_ids: [hris.id] })).toHaveLength(1)
      expect(yield* list({ account_ids: [ats.id, hris.id] })).toHaveLength(5)
      expect(yield* list({ account_ids: ["no-such-account"] })).toHaveLength(0)
      expect(yield* list({ providers: ["greenhouse"] })).toHaveLength(4)
      expect(yield* list({ actions: ["ats_list_applications"] })).toHaveLength(3)
      expect(yield* list({ actions: ["ats_get_application", "hris_update_employee"] })).toHaveLength(2)
      const refused = yield* list({ status_codes: [400] })
      expect(refused.map((entry) => [entry.action, entry.status])).toEqual([["ats_list_applications", 400]])
      expect(yield* list({ status_codes: [200, 400] })).toHaveLength(5)
      expect(yield* list({ success: false })).toEqual(refused)
      expect(yield* list({ success: true })).toHaveLength(4)
      expect((yield* list({ source_types: ["unified"] })).map((entry) => entry.path)).toEqual(["/unified/ats/applications"])
      expect(yield* list({ http_methods: ["get"] })).toHaveLength(1)
      expect(yield* list({ request_ids: [refused[0]!.request_id] })).toEqual(refused)
      expect(yield* list({ account_ids: [ats.id], success: true, source_types: ["rpc"] })).toHaveLength(2)

      const all = yield* list({})
      const oldest = new Date(Date.parse(all[all.length - 1]!.event_datetime))
      const newest = new Date(Date.parse(all[0]!.event_datetime))
      const at = (date: Date) => DateTime.unsafeFromDate(date)
      expect(yield* list({ start_date: at(oldest) })).toHaveLength(5)
      expect(yield* list({ start_date: at(new Date(newest.getTime() + 1)) })).toHaveLength(0)
      expect(yield* list({ end_date: at(oldest) })).toHaveLength(0)
      expect(yield* list({ start_date: at(oldest), end_date: at(new Date(newest.getTime() + 1)) })).toHaveLength(5)
      // the wire form: comma-separated lists and ISO dates
      const wire = yield* send(
        HttpClientRequest.get(
          `/requests/logs?account_ids=${ats.id},${hris.id}&status_codes=200&success=true&start_date=2000-01-01&order_direction=asc`
        ).pipe(withKey(project.key))
      )
      expect(wire.status).toBe(200)
      expect((wire.json as { data: ReadonlyArray<unknown> }).data).toHaveLength(4)
      // StackOne's deep-object form of the same filters, and its spelling of the time order
      const deep = yield* send(
        HttpClientRequest.get(
          `/requests/logs?filter[account_ids]=${ats.id}&filter[success]=false&filter[start_date]=2000-01-01&order_by=eventDatetime`
        ).pipe(withKey(project.key))
      )
      expect(deep.status).toBe(200)
      expect((deep.json as { data: ReadonlyArray<{ request_id: string }> }).data.map((entry) => entry.request_id))
        .toEqual(ids(refused))
      expect(yield* list({ "filter[actions]": ["ats_get_application"], actions: ["hris_update_employee"] })).toHaveLength(2)
    }))

  it.effect("pages through next in every order, each entry once, and refuses a foreign or altered cursor", () =>
    Effect.gen(function*() {
      const { project } = yield* setup
      const client = project.client
      const newestFirst = (yield* client.request_logs.list_request_logs({ urlParams: {} })).data
      const paged = yield* listAll(client, { page_size: 2 })
      expect(ids(paged)).toEqual(ids(newestFirst))
      const oldestFirst = yield* listAll(client, { page_size: 1, order_direction: "asc" })
      expect(ids(oldestFirst)).toEqual(ids(newestFirst).reverse())

      const shortest = yield* listAll(client, { page_size: 2, order_by: "duration", order_direction: "asc" })
      expect(new Set(ids(shortest)).size).toBe(5)
      const durations = shortest.map((entry) => entry.duration)
      expect([...durations].sort((a, b) => a - b)).toEqual(durations)
      const longest = yield* listAll(client, { page_size: 3, order_by: "duration" })
      expect(ids(longest)).toEqual(ids(shortest).reverse())
      expect(ids(yield* listAll(client, { page_size: 2, order_by: "eventDatetime" }))).toEqual(ids(newestFirst))

      const first = yield* client.request_logs.list_request_logs({ urlParams: { page_size: 2 } })
      expect(first.data).toHaveLength(2)
      const next = first.next!
      expect(next).toEqual(expect.any(String))
      const refuse = (query: string, key = project.key) =>
        Effect.map(send(HttpClientRequest.get(`/requests/logs?${query}`).pipe(withKey(key))), (response) => {
          const body = expectErrorBody(response, 400)
          expect(body.message).toMatch(/next/)
          return body.message
        })
      expect(yield* refuse(`next=${next}&order_by=duration`)).toMatch(/order/)
      expect(yield* refuse(`next=${next}&order_direction=asc`)).toMatch(/order/)
      expect(yield* refuse(`next=${next.slice(0, -2)}xx`)).toMatch(/signature/)
      expect(yield* refuse("next=garbage")).toMatch(/malformed/)
      const other = yield* otherProject
      expect(yield* refuse(`next=${next}`, other.key)).toMatch(/another project/)
    }))

  it.effect("pages exactly through entries apart by microseconds, in both time orders", () =>
    Effect.gen(function*() {
      const project = yield* freshProject
      const sql = yield* SqlClient.SqlClient
      // entries within one millisecond, which a JavaScript Date cannot tell apart
      yield* sql`
        INSERT INTO request_logs (id, project_id, account_id, kind, action, status, duration_ms, created_at)
        SELECT gen_random_uuid(), ${project.projectId}, 'acc', 'rpc', 'action_' || n, 200, n,
               date_trunc('milliseconds', now() - interval '1 hour') + make_interval(secs => n / 1000000.0)
        FROM generate_series(1, 4) AS n`
      const newestFirst = yield* listAll(project.client, { page_size: 1 })
      expect(newestFirst.map((entry) => entry.action)).toEqual(["action_4", "action_3", "action_2", "action_1"])
      const oldestFirst = yield* listAll(project.client, { page_size: 1, order_direction: "asc" })
      expect(oldestFirst.map((entry) => entry.action)).toEqual(["action_1", "action_2", "action_3", "action_4"])
    }))

  it.effect("shows one entry with its provider calls, URLs redacted", () =>
    Effect.gen(function*() {
      const { project, sandbox } = yield* setup
      const [update, , refused] = (yield* project.client.request_logs.list_request_logs({ urlParams: {} })).data
      const { data: detail } = yield* project.client.request_logs.get_request_log({ path: { id: update!.request_id } })
      expect(detail).toMatchObject({
        ...update,
        // bodies stay out unless the project keeps them
        step_requests: [{ http_method: "POST", status: 200, success: true, request_body: null, response_body: null }]
      })
      const [step] = detail.step_requests
      expect(step!.duration).toBeGreaterThanOrEqual(0)
      expect(step!.url).toContain("/v1/employees/101")
      // bamboohr 1.0.0 keeps its company domain secret, in URLs too; the API key never shows
      expect(step!.url).toContain("[REDACTED]")
      const text = JSON.stringify(detail)
      expect(text).not.toContain(sandbox.hris.companyDomain)
      expect(text).not.toContain(sandbox.hris.apiKey)

      const { data: failed } = yield* project.client.request_logs.get_request_log({ path: { id: refused!.request_id } })
      expect(failed.step_requests).toEqual([expect.objectContaining({ http_method: "GET", status: 400, success: false })])
      expect(failed.step_requests[0]!.url).toContain("/v1/applications")

      for (const id of [Crypto.randomUUID(), "not-a-uuid"]) {
        const response = yield* send(HttpClientRequest.get(`/requests/logs/${id}`).pipe(withKey(project.key)))
        expect(expectErrorBody(response, 404).message).toContain(id)
      }
    }))

  it.effect("keeps provider bodies, redacted and cut, only while the project asks for them", () =>
    Effect.gen(function*() {
      const { ats, hris, project, sandbox } = yield* setup
      const projects = yield* ProjectsRepo
      const log = yield* RequestLog
      const rpc = (accountId: string, payload: { action: string; query?: Record<string, unknown>; path?: Record<string, unknown>; body?: unknown }) =>
        project.client.actions.rpc_action({ headers: { "x-account-id": accountId }, payload })
      const stepsOfLatest = Effect.gen(function*() {
        yield* log.flush
        const [latest] = (yield* project.client.request_logs.list_request_logs({ urlParams: { page_size: 1 } })).data
        return (yield* project.client.request_logs.get_request_log({ path: { id: latest!.request_id } })).data.step_requests
      })

      yield* projects.setRequestLogBodies(project.projectId, true)
      yield* rpc(hris.id, { action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Grace" } })
      const [update] = yield* stepsOfLatest
      expect(JSON.parse(update!.request_body!)).toEqual({ firstName: "Grace" })
      const text = JSON.stringify(update)
      expect(text).not.toContain(sandbox.hris.apiKey)
      expect(text).not.toContain(sandbox.hris.companyDomain)

      yield* rpc(ats.id, { action: "ats_list_applications", query: { page_size: 100 } })
      const [list] = yield* stepsOfLatest
      expect(list!.request_body).toBeNull()
      expect(list!.response_body!.length).toBeGreaterThan(MAX_LOGGED_BODY_LENGTH)
      expect(list!.response_body!.slice(0, MAX_LOGGED_BODY_LENGTH + 1)).toMatch(/^\[/)
      expect(list!.response_body).toMatch(/…\[cut: \d+ characters in all\]$/)
      expect(list!.response_body).not.toContain(sandbox.ats.apiKey)

      yield* projects.setRequestLogBodies(project.projectId, false)
      yield* rpc(hris.id, { action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Ada" } })
      expect(yield* stepsOfLatest).toEqual([expect.objectContaining({ request_body: null, response_body: null })])
    }))

  it.effect("keeps each project to its own entries", () =>
    Effect.gen(function*() {
      const { project } = yield* setup
      const mine = (yield* project.client.request_logs.list_request_logs({ urlParams: {} })).data
      const other = yield* otherProject
      const otherClient = yield* clientFor(other.key)
      expect((yield* otherClient.request_logs.list_request_logs({ urlParams: {} })).data).toEqual([])
      expect(
        (yield* otherClient.request_logs.list_request_logs({ urlParams: { request_ids: ids(mine) } })).data
      ).toEqual([])
      const error = yield* Effect.flip(otherClient.request_logs.get_request_log({ path: { id: mine[0]!.request_id } }))
      expect(error._tag).toBe("NotFound")
      // and a second project of the same organization sees none either
      const sibling = yield* freshProject
      expect((yield* sibling.client.request_logs.list_request_logs({ urlParams: {} })).data).toEqual([])
    }))

  it.effect("lets Read Only keys read the log, and not narrow scopes without it", () =>
    Effect.gen(function*() {
      const { project } = yield* setup
      const readOnly = yield* clientFor((yield* keyFor(project.projectId, "read_only")).key)
      const page = yield* readOnly.request_logs.list_request_logs({ urlParams: {} })
      expect(page.data).toHaveLength(5)
      const { data } = yield* readOnly.request_logs.get_request_log({ path: { id: page.data[0]!.request_id } })
      expect(data.request_id).toBe(page.data[0]!.request_id)
      for (const scope of ["accounts", "actions"] as const) {
        const { key } = yield* keyFor(project.projectId, scope)
        const response = yield* send(HttpClientRequest.get("/requests/logs").pipe(withKey(key)))
        expectErrorBody(response, 403)
      }
      expectErrorBody(yield* send(HttpClientRequest.get("/requests/logs")), 401)
    }))

  it.effect("answers bad parameters with 400 naming the parameter", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      const cases: ReadonlyArray<readonly [string, RegExp]> = [
        ["page_size=0", /\bpage_size\b/],
        ["page_size=101", /\bpage_size\b/],
        ["page_size=abc", /\bpage_size\b/],
        ["status_codes=abc", /\bstatus_codes\b/],
        ["status_codes=200,99", /\bstatus_codes\b/],
        ["success=maybe", /\bsuccess\b/],
        ["start_date=yesterday", /\bstart_date\b/],
        ["end_date=2024-13-45", /\bend_date\b/],
        ["order_by=name", /\border_by\b/],
        ["order_direction=up", /\border_direction\b/],
        ["source_types=cli", /\bsource_types\b/],
        ["filter[status_codes]=abc", /\bfilter\[status_codes\]/],
        ["filter[success]=yes", /\bfilter\[success\]/]
      ]
      for (const [query, mentions] of cases) {
        const response = yield* send(HttpClientRequest.get(`/requests/logs?${query}`).pipe(withKey(key)))
        const body = expectErrorBody(response, 400)
        expect({ query, message: body.message }).toEqual({ query, message: expect.stringMatching(mentions) })
      }
      for (const query of ["page_size=1", "page_size=100", "status_codes=", "success=false", "start_date=2024-01-01T00:00:00Z"]) {
        const response = yield* send(HttpClientRequest.get(`/requests/logs?${query}`).pipe(withKey(key)))
        expect({ query, status: response.status }).toEqual({ query, status: 200 })
      }
    }))

  it.effect("writes a backlog larger than one statement's parameters allow, in chunks", () =>
    Effect.gen(function*() {
      const project = yield* freshProject
      const log = yield* RequestLog
      // 5,000 rows of 14 columns would need 70,000 parameters in one INSERT (the limit is 65,535)
      const at = new Date()
      for (let n = 0; n < 5_000; n++) {
        yield* log.record({
          projectId: project.projectId,
          accountId: "backlog",
          provider: "greenhouse",
          incoming: null,
          kind: "rpc",
          action: "ats_list_applications",
          status: 200,
          durationMs: n,
          providerCalls: [],
          error: null,
          at
        })
      }
      expect(yield* log.flush).toBe(5_000)
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM request_logs WHERE project_id = ${project.projectId}`
      expect(Number(row!.n)).toBe(5_000)
      const page = yield* project.client.request_logs.list_request_logs({ urlParams: { order_by: "duration", page_size: 1 } })
      expect(page.data[0]).toMatchObject({ duration: 4_999, http_method: null, path: null, url: null, provider: "greenhouse" })
    }))

  it.effect("removes entries past the retention period in bounded batches", () =>
    Effect.gen(function*() {
      const { project } = yield* setup
      const config = yield* SwitchyardConfig
      expect(config.requestLogRetentionDays).toBe(30)
      const sql = yield* SqlClient.SqlClient
      const log = yield* RequestLog
      const kept = ids((yield* project.client.request_logs.list_request_logs({ urlParams: {} })).data)
      // five entries of the same project aged past the period (31 to 35 days)
      yield* sql`
        INSERT INTO request_logs (id, project_id, account_id, kind, action, status, duration_ms, created_at)
        SELECT gen_random_uuid(), ${project.projectId}, 'old-account', 'rpc', 'old_action', 200, 1,
               now() - make_interval(days => 30 + n)
        FROM generate_series(1, 5) AS n`
      const count = Effect.map(
        sql<{ n: number }>`SELECT count(*)::int AS n FROM request_logs WHERE project_id = ${project.projectId}`,
        (rows) => Number(rows[0]!.n)
      )
      expect(yield* count).toBe(10)
      // one batch deletes at most its limit
      expect(yield* log.deleteOlderThan(config.requestLogRetentionDays, 2)).toBe(2)
      expect(yield* count).toBe(8)
      // a run stops after its batches: at most 1 x 2 here
      expect(yield* log.purgeOlderThan(config.requestLogRetentionDays, 2, 1)).toBe(2)
      // then the next run catches up, batch after batch, and leaves the recent entries
      expect(yield* log.purgeOlderThan(config.requestLogRetentionDays, 2, 10)).toBe(1)
      expect(yield* count).toBe(5)
      expect(ids((yield* project.client.request_logs.list_request_logs({ urlParams: {} })).data)).toEqual(kept)
    }))

  it.effect("is in the OpenAPI document behind HTTP Basic (or the dashboard session), with its parameters and errors", () =>
    Effect.gen(function*() {
      const response = yield* send(HttpClientRequest.get("/openapi.json"))
      expect(response.status).toBe(200)
      type Operation = {
        operationId: string
        security: ReadonlyArray<Record<string, unknown>>
        parameters: ReadonlyArray<{ name: string; in: string; schema: Record<string, unknown> }>
        responses: Record<string, unknown>
      }
      const document = response.json as { paths: Record<string, Record<string, Operation>> }
      const list = document.paths["/requests/logs"]!.get!
      const detail = document.paths["/requests/logs/{id}"]!.get!
      expect(list.operationId).toMatch(/(^|\.)list_request_logs$/)
      expect(detail.operationId).toMatch(/(^|\.)get_request_log$/)
      for (const operation of [list, detail]) {
        // HTTP Basic, or the dashboard's session cookie
        expect(operation.security.flatMap((requirement) => Object.keys(requirement)).sort()).toEqual(["basic", "dashboardSession"])
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403"]))
      }
      expect(Object.keys(detail.responses)).toContain("404")
      const names = list.parameters.map((parameter) => parameter.name)
      expect(names).toEqual(expect.arrayContaining([
        "page_size", "next", "account_ids", "actions", "status_codes", "success", "start_date", "end_date", "order_by", "order_direction",
        "filter[account_ids]", "filter[status_codes]", "filter[end_date]"
      ]))
      const param = (name: string) => list.parameters.find((parameter) => parameter.name === name)!
      expect(param("order_by").schema).toMatchObject({ enum: ["event_datetime", "eventDatetime", "duration"] })
      expect(param("order_direction").schema).toMatchObject({ enum: ["asc", "desc"] })
      expect(param("page_size").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 })
    }))
})

const SchedulerServices = SchedulerLive.pipe(
  Layer.provideMerge(Layer.mergeAll(RequestLog.Default, ProjectsRepo.Default, LastRequestTracker.Default)),
  // the hour passes in test time: the other jobs tick rarely, so it passes quickly
  Layer.provideMerge(TestDatabase({
    SWITCHYARD_REQUEST_LOG_RETENTION_DAYS: "7",
    SWITCHYARD_INSTANCE_HEARTBEAT_SECONDS: "3600",
    SWITCHYARD_LAST_REQUEST_FLUSH_SECONDS: "3600",
    SWITCHYARD_REQUEST_LOG_FLUSH_SECONDS: "3600"
  }))
)

layer(SchedulerServices)("request log retention driven by the scheduler", (it) => {
  it.effect("removes entries older than SWITCHYARD_REQUEST_LOG_RETENTION_DAYS on its hourly run", () =>
    Effect.gen(function*() {
      const projects = yield* ProjectsRepo
      const sql = yield* SqlClient.SqlClient
      const organization = yield* projects.createOrganization("Org")
      const project = yield* projects.createProject(organization.id, "Project")
      yield* sql`
        INSERT INTO request_logs (id, project_id, account_id, kind, action, status, duration_ms, created_at)
        SELECT gen_random_uuid(), ${project.id}, 'acc', 'rpc', 'aged_' || days, 200, 1, now() - make_interval(days => days)
        FROM unnest(ARRAY[6, 8, 9]) AS days`
      const actions = Effect.map(
        sql<{ action: string }>`SELECT action FROM request_logs WHERE project_id = ${project.id} ORDER BY action`,
        (rows) => rows.map((row) => row.action)
      )
      yield* TestClock.adjust("59 minutes")
      expect(yield* actions).toEqual(["aged_6", "aged_8", "aged_9"])
      yield* TestClock.adjust("1 minute")
      // the job runs on the database's own pace: poll briefly for it
      const kept = yield* actions.pipe(Effect.repeat({ until: (left) => left.length === 1, times: 200 }))
      expect(kept).toEqual(["aged_6"])
    }))
})
