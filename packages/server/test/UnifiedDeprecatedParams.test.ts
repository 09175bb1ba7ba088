import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { direct, type Json, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, send, withKey } from "./support/Wire.js"

/*
 * The deprecated flat parameters (`page`, `updated_after`, `sync_token`) and the LMS
 * assignments' unprefixed filter and proxy keys, end to end: what the provider is asked
 * and how the answer is narrowed or paged.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(23))

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.faults.clear()
  const project = yield* freshProject
  const link = (payload: Parameters<typeof accountBody>[0]) =>
    Effect.map(project.client.accounts.create_account({ payload: accountBody(payload) }), (account) => ({ "x-account-id": account.id }))
  const ats = yield* link({ connector_key: "greenhouse", credentials: { apiKey: sandbox.ats.apiKey }, settings: { base_url: sandbox.ats.baseUrl } })
  const lms = yield* link({ connector_key: "talentlms", credentials: { apiKey: sandbox.lms.apiKey, domain: "sandbox" }, settings: { base_url: sandbox.lms.baseUrl } })
  sandbox.clearRequests()
  return { sandbox, project, client: project.client, ats, lms }
})

const ids = (records: ReadonlyArray<Json>) => records.map((record) => String(record.id))

/** The middle of the records' distinct `field` times: a value that narrows without emptying. */
const median = (records: ReadonlyArray<Json>, field: string) => {
  const values = [...new Set(records.map((record) => record[field] as string))].sort()
  return values[Math.floor(values.length / 2)]!
}

/** The LMS user enrolled in the most courses. */
const busiestLmsUser = (sandbox: Effect.Effect.Success<typeof setup>["sandbox"]) =>
  Effect.gen(function*() {
    let busiest: Json = {}
    for (const user of (yield* direct(sandbox, "lms", "/users")) as Array<Json>) {
      const detail: Json = yield* direct(sandbox, "lms", `/users/id:${user.id}`)
      if (detail.courses.length > (busiest.courses?.length ?? -1)) busiest = detail
    }
    return busiest
  })

/** Every page of a list, following `next`. */
const everyPage = (page: (next: string | undefined) => Effect.Effect<Json, unknown>) =>
  Effect.gen(function*() {
    const records: Array<Json> = []
    let next: string | undefined
    do {
      const answer = yield* page(next)
      records.push(...answer.data)
      next = answer.next ?? undefined
    } while (next !== undefined)
    return records
  })

/** Queries the provider was sent on `path`. */
const sentTo = (sandbox: Effect.Effect.Success<typeof setup>["sandbox"], path: string) =>
  sandbox.requests().filter((request) => request.path === path).map((request) => request.query)

layer(Server, { excludeTestServices: true })("unified deprecated parameters", (it) => {
  it.effect("page: the provider's page of that number; next wins over it; not a page number is a 400", () =>
    Effect.gen(function*() {
      const { ats, client, project, sandbox } = yield* setup
      const third = (yield* direct(sandbox, "ats", "/applications?per_page=5&page=3")) as Array<Json>
      sandbox.clearRequests()
      const page: Json = yield* client.unified_ats.ats_list_applications({ headers: ats, urlParams: { page: "3", page_size: 5 } })
      expect(ids(page.data)).toEqual(ids(third))
      expect(sentTo(sandbox, "/v1/applications")).toEqual([expect.objectContaining({ page: "3", per_page: "5" })])

      // following next from page 3 reads page 4, whatever page says
      const fourth = (yield* direct(sandbox, "ats", "/applications?per_page=5&page=4")) as Array<Json>
      const following: Json = yield* client.unified_ats.ats_list_applications({
        headers: ats,
        urlParams: { page: "1", page_size: 5, next: page.next }
      })
      expect(ids(following.data)).toEqual(ids(fourth))

      const refused = yield* send(
        HttpClientRequest.get("/unified/ats/applications?page=0").pipe(
          HttpClientRequest.setHeader("x-account-id", ats["x-account-id"]),
          withKey(project.key)
        )
      )
      expect(expectErrorBody(refused, 400).message).toMatch(/page must be a page number/)
    }))

  it.effect("page on the LMS assignments: that page of the user's assignments, not an offset", () =>
    Effect.gen(function*() {
      const { client, lms, sandbox } = yield* setup
      const user = yield* busiestLmsUser(sandbox)
      const all: Json = yield* client.unified_lms.lms_list_user_assignments({
        headers: lms,
        path: { id: String(user.id) },
        urlParams: { page_size: 200 }
      })
      expect(all.data.length).toBeGreaterThanOrEqual(5)
      const second: Json = yield* client.unified_lms.lms_list_user_assignments({
        headers: lms,
        path: { id: String(user.id) },
        urlParams: { page: "2", page_size: 2 }
      })
      expect(ids(second.data)).toEqual(ids(all.data.slice(2, 4)))
      const rest: Json = yield* client.unified_lms.lms_list_user_assignments({
        headers: lms,
        path: { id: String(user.id) },
        urlParams: { page_size: 200, next: second.next }
      })
      expect(ids(rest.data)).toEqual(ids(all.data.slice(4)))
    }))

  it.effect("updated_after (flat): sent to the provider as updated_after and narrows; filter[updated_after] wins", () =>
    Effect.gen(function*() {
      const { ats, client, sandbox } = yield* setup
      const list = (urlParams: Json) => (next: string | undefined) =>
        client.unified_ats.ats_list_applications({ headers: ats, urlParams: { page_size: 200, ...urlParams, ...(next === undefined ? {} : { next }) } })
      const all = yield* everyPage(list({}))
      const since = median(all, "updated_at")
      sandbox.clearRequests()
      const narrowed = yield* everyPage(list({ updated_after: since }))
      const sent = sentTo(sandbox, "/v1/applications")
      expect(sent.length).toBeGreaterThan(0)
      for (const query of sent) expect(Date.parse(query.updated_after as string)).toBe(Date.parse(since))
      const expected = all.filter((record: Json) => Date.parse(record.updated_at) >= Date.parse(since))
      expect(expected.length).toBeGreaterThan(0)
      expect(expected.length).toBeLessThan(all.length)
      expect(ids(narrowed)).toEqual(ids(expected))

      sandbox.clearRequests()
      yield* client.unified_ats.ats_list_applications({
        headers: ats,
        urlParams: { page_size: 5, updated_after: since, filter: { updated_after: "2001-02-03T04:05:06.000Z" } }
      })
      expect(Date.parse(sentTo(sandbox, "/v1/applications")[0]!.updated_after as string)).toBe(Date.parse("2001-02-03T04:05:06.000Z"))
    }))

  it.effect("updated_after (flat) on the LMS assignments narrows them", () =>
    Effect.gen(function*() {
      const { client, lms, sandbox } = yield* setup
      const userId = String((yield* busiestLmsUser(sandbox)).id)
      const all = ((yield* client.unified_lms.lms_list_user_assignments({ headers: lms, path: { id: userId }, urlParams: { page_size: 200 } })) as Json)
        .data as Array<Json>
      const since = median(all, "updated_at")
      const narrowed: Json = yield* client.unified_lms.lms_list_user_assignments({
        headers: lms,
        path: { id: userId },
        urlParams: { page_size: 200, updated_after: since }
      })
      const expected = all.filter((record) => Date.parse(record.updated_at) >= Date.parse(since))
      expect(expected.length).toBeLessThan(all.length)
      expect(ids(narrowed.data)).toEqual(ids(expected))
    }))

  it.effect("sync_token: the time of the previous sync, sent as updated_after; not a date-time is a 400", () =>
    Effect.gen(function*() {
      const { ats, client, project, sandbox } = yield* setup
      const all: Json = yield* client.unified_ats.ats_list_candidates({ headers: ats, urlParams: { page_size: 200 } })
      const token = median(all.data, "updated_at")
      sandbox.clearRequests()
      const synced: Json = yield* client.unified_ats.ats_list_candidates({
        headers: ats,
        urlParams: { page_size: 200, sync_token: token }
      })
      const [query] = sentTo(sandbox, "/v1/candidates")
      expect(Date.parse(query!.updated_after as string)).toBe(Date.parse(token))
      const expected = all.data.filter((record: Json) => Date.parse(record.updated_at) >= Date.parse(token))
      expect(expected.length).toBeGreaterThan(0)
      expect(expected.length).toBeLessThan(all.data.length)
      expect(ids(synced.data)).toEqual(ids(expected))

      const refused = yield* send(
        HttpClientRequest.get("/unified/ats/candidates?sync_token=opaque-token").pipe(
          HttpClientRequest.setHeader("x-account-id", ats["x-account-id"]),
          withKey(project.key)
        )
      )
      expect(expectErrorBody(refused, 400).message).toMatch(/sync_token/)
    }))

  it.effect("LMS assignments: filter and proxy keys without brackets; the bracketed filter wins", () =>
    Effect.gen(function*() {
      const { client, lms, project, sandbox } = yield* setup
      const userId = String((yield* busiestLmsUser(sandbox)).id)
      const all = ((yield* client.unified_lms.lms_list_user_assignments({ headers: lms, path: { id: userId }, urlParams: { page_size: 200 } })) as Json)
        .data as Array<Json>
      const statuses = [...new Set(all.map((record) => record.status.value as string))]
      expect(statuses.length).toBeGreaterThanOrEqual(2)
      const get = (query: string) =>
        send(
          HttpClientRequest.get(`/unified/lms/users/${userId}/assignments?${query}`).pipe(
            HttpClientRequest.setHeader("x-account-id", lms["x-account-id"]),
            withKey(project.key)
          )
        )
      const byStatus = (status: string) => ids(all.filter((record) => record.status.value === status))

      sandbox.clearRequests()
      const bare = yield* get(`page_size=200&status=${statuses[0]}&probe=on`)
      expect(bare.status).toBe(200)
      expect(ids((bare.json as Json).data)).toEqual(byStatus(statuses[0]!))
      const seen = sentTo(sandbox, `/api/v1/users/id:${userId}`)
      expect(seen.length).toBeGreaterThan(0)
      for (const query of seen) expect(query.probe).toBe("on")

      const both = yield* get(`page_size=200&status=${statuses[0]}&filter[status]=${statuses[1]}`)
      expect(ids((both.json as Json).data)).toEqual(byStatus(statuses[1]!))

      const invalid = yield* get("status=abandoned")
      expect(expectErrorBody(invalid, 400).message).toMatch(/status/)
    }))
})
