import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxBambooAccount, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, send, withKey } from "./support/Wire.js"

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(11))

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({
    payload: sandboxGreenhouseAccount(sandbox)
  })
  const lms = yield* project.client.accounts.create_account({
    payload: accountBody({
      connector_key: "talentlms",
      credentials: { apiKey: sandbox.lms.apiKey, domain: "sandbox" },
      settings: { base_url: sandbox.lms.baseUrl }
    })
  })
  sandbox.faults.clear()
  return { sandbox, project, ats, lms }
})

layer(Server, { excludeTestServices: true })("unified API", (it) => {
  it.effect("lists every application exactly once by following next", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const seen = new Set<string>()
      let next: string | null | undefined = undefined
      let pages = 0
      do {
        const page = (yield* project.client.unified_ats.ats_list_applications({
          headers: { "x-account-id": ats.id },
          urlParams: { page_size: 100, ...(next === undefined || next === null ? {} : { next }) }
        })) as unknown as { data: ReadonlyArray<{ id: string }>; next: string | null }
        for (const record of page.data) {
          expect(seen.has(record.id)).toBe(false)
          seen.add(record.id)
        }
        next = page.next
        pages++
      } while (next !== null && pages < 20)
      expect(seen.size).toBe(sandbox.counts.applications)
      expect(pages).toBe(Math.ceil(sandbox.counts.applications / 100))
    }))

  it.effect("projects fields, shows raw calls on request, and gets one record", () =>
    Effect.gen(function*() {
      const { ats, project } = yield* setup
      const page: any = yield* project.client.unified_ats.ats_list_applications({
        headers: { "x-account-id": ats.id },
        urlParams: { page_size: 3, fields: ["id", "status"], raw: true }
      })
      expect(page.data).toHaveLength(3)
      expect(Object.keys(page.data[0]).sort()).toEqual(["id", "status"])
      expect(page.raw).toHaveLength(1)
      expect(page.raw[0]).toMatchObject({ method: "GET", response: { status: 200 } })
      const one: any = yield* project.client.unified_ats.ats_get_application({
        headers: { "x-account-id": ats.id },
        path: { id: page.data[0].id },
        urlParams: {}
      })
      expect(one.data.id).toBe(page.data[0].id)
      expect(one.raw).toBeNull()
    }))

  it.effect("refuses tampered or foreign cursors, unknown filters, and missing accounts", () =>
    Effect.gen(function*() {
      const { ats, lms, project } = yield* setup
      const first: any = yield* project.client.unified_ats.ats_list_applications({
        headers: { "x-account-id": ats.id },
        urlParams: { page_size: 10 }
      })
      const tampered = yield* send(
        HttpClientRequest.get(`/unified/ats/applications?next=${first.next.slice(0, -2)}xx`).pipe(
          HttpClientRequest.setHeader("x-account-id", ats.id),
          withKey(project.key)
        )
      )
      expectErrorBody(tampered, 400)
      const foreign = yield* send(
        HttpClientRequest.get(`/unified/ats/applications?next=${first.next}`).pipe(
          HttpClientRequest.setHeader("x-account-id", lms.id),
          withKey(project.key)
        )
      )
      expectErrorBody(foreign, 400)
      const badFilter = yield* send(
        HttpClientRequest.get("/unified/ats/applications?filter[nope]=1").pipe(
          HttpClientRequest.setHeader("x-account-id", ats.id),
          withKey(project.key)
        )
      )
      expectErrorBody(badFilter, 400)
      const noAccount = yield* send(HttpClientRequest.get("/unified/ats/applications").pipe(withKey(project.key)))
      expectErrorBody(noAccount, 400)
      const unknown = yield* send(
        HttpClientRequest.get("/unified/ats/applications").pipe(
          HttpClientRequest.setHeader("x-account-id", "nope"),
          withKey(project.key)
        )
      )
      expectErrorBody(unknown, 404)
    }))

  it.effect("answers 501 when the account's connector lacks the operation, 412 for a suspended account", () =>
    Effect.gen(function*() {
      const { ats, lms, project } = yield* setup
      const missing = yield* project.client.unified_ats.ats_list_applications({
        headers: { "x-account-id": lms.id },
        urlParams: {}
      }).pipe(Effect.flip)
      expect(missing._tag).toBe("NotImplemented")
      yield* project.client.accounts.patch_account({ path: { id: ats.id }, urlParams: {}, payload: { status: "suspended" } })
      const suspended = yield* project.client.unified_ats.ats_list_applications({
        headers: { "x-account-id": ats.id },
        urlParams: {}
      }).pipe(Effect.flip)
      expect(suspended._tag).toBe("PreconditionFailed")
    }))

  it.effect("Prefer: heartbeat sends newlines while a slow call runs, then the JSON", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "latency", latencyMs: 2500, times: 1 })
      const response = yield* send(
        HttpClientRequest.get("/unified/ats/applications?page_size=2").pipe(
          HttpClientRequest.setHeader("x-account-id", ats.id),
          HttpClientRequest.setHeader("prefer", "heartbeat"),
          withKey(project.key)
        )
      )
      expect(response.status).toBe(200)
      expect(response.headers["preference-applied"]).toBe("heartbeat")
      expect(response.text).toMatch(/^\n+\{/)
      expect(JSON.parse(response.text.trim()).data).toHaveLength(2)
    }))

  it.effect("downloads a document byte for byte with its media type, and as base64", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const auth = { authorization: `Basic ${Buffer.from(`${sandbox.ats.apiKey}:`).toString("base64")}` }
      const apps = yield* Effect.promise(() =>
        fetch(`${sandbox.ats.baseUrl}/applications?per_page=500`, { headers: auth }).then((r) =>
          r.json() as Promise<Array<{ id: number; attachments: Array<{ filename: string; url: string }> }>>
        )
      )
      const app = apps.find((candidate) => candidate.attachments.length > 0)!
      const attachment = app.attachments[0]!
      const expected = yield* Effect.promise(() => fetch(attachment.url).then(async (r) => Buffer.from(await r.arrayBuffer())))
      const path = `/unified/ats/applications/${app.id}/documents/${encodeURIComponent(attachment.filename)}/download`
      const request = (query: string) =>
        send(HttpClientRequest.get(path + query).pipe(HttpClientRequest.setHeader("x-account-id", ats.id), withKey(project.key)))
      const response = yield* HttpClient.execute(
        HttpClientRequest.get(path).pipe(HttpClientRequest.setHeader("x-account-id", ats.id), withKey(project.key))
      )
      const binary = { status: response.status, bytes: Buffer.from(yield* response.arrayBuffer) }
      expect(binary.status).toBe(200)
      expect(binary.bytes.equals(expected)).toBe(true)
      const base64 = yield* request("?format=base64")
      expect(base64.status).toBe(200)
      expect(Buffer.from(base64.text, "base64").equals(expected)).toBe(true)
    }))

  it.effect("uploads a document through the unified endpoint, then downloads the same bytes", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const auth = { authorization: `Basic ${Buffer.from(`${sandbox.ats.apiKey}:`).toString("base64")}` }
      const apps = yield* Effect.promise(() =>
        fetch(`${sandbox.ats.baseUrl}/applications?per_page=50&status=active`, { headers: auth }).then((r) =>
          r.json() as Promise<Array<{ id: number }>>
        )
      )
      const appId = String(apps[0]!.id)
      const content = new TextEncoder().encode("Portfolio notes, uploaded through Switchyard\n")
      const answer = yield* project.client.unified_ats.ats_upload_application_document({
        headers: { "x-account-id": ats.id },
        path: { id: appId },
        payload: { name: "switchyard-notes.txt", file_format: { value: "txt" }, content, category: { value: "other" } }
      })
      expect(answer).toMatchObject({ statusCode: 201 })
      const response = yield* HttpClient.execute(
        HttpClientRequest.get(`/unified/ats/applications/${appId}/documents/switchyard-notes.txt/download`).pipe(
          HttpClientRequest.setHeader("x-account-id", ats.id),
          withKey(project.key)
        )
      )
      expect(response.status).toBe(200)
      expect(Buffer.from(yield* response.arrayBuffer).equals(Buffer.from(content))).toBe(true)
    }))

  it.effect("updates an employee: the write answer, and the job title written to the current employment", () =>
    Effect.gen(function*() {
      const { project, sandbox } = yield* setup
      const hris = yield* project.client.accounts.create_account({
        payload: sandboxBambooAccount(sandbox)
      })
      const auth = { authorization: `Basic ${Buffer.from(`${sandbox.hris.apiKey}:x`).toString("base64")}`, accept: "application/json" }
      const directory = yield* Effect.promise(() =>
        fetch(`${sandbox.hris.baseUrl}/employees/directory`, { headers: auth }).then((r) =>
          r.json() as Promise<{ employees: Array<{ id: string }> }>
        )
      )
      const employeeId = String(directory.employees[0]!.id)
      const answer = yield* project.client.unified_hris.hris_update_employee({
        headers: { "x-account-id": hris.id },
        path: { id: employeeId },
        payload: { first_name: "Grace", job_title: "Principal Engineer" }
      })
      expect(answer).toMatchObject({ statusCode: 200, message: expect.any(String) })
      expect(Date.parse(answer.timestamp)).not.toBeNaN()
      const after = yield* Effect.promise(() =>
        fetch(`${sandbox.hris.baseUrl}/employees/${employeeId}?fields=firstName,jobTitle`, { headers: auth }).then((r) =>
          r.json() as Promise<{ firstName: string; jobTitle: string }>
        )
      )
      expect(after).toMatchObject({ firstName: "Grace", jobTitle: "Principal Engineer" })
    }))

  it.effect("lists an LMS user's assignments", () =>
    Effect.gen(function*() {
      const { lms, project, sandbox } = yield* setup
      const auth = { authorization: `Basic ${Buffer.from(`${sandbox.lms.apiKey}:`).toString("base64")}` }
      const users = yield* Effect.promise(() =>
        fetch(`${sandbox.lms.baseUrl}/users`, { headers: auth }).then((r) => r.json() as Promise<Array<{ id: string }>>)
      )
      const user = yield* Effect.promise(() =>
        fetch(`${sandbox.lms.baseUrl}/users/id:${users[0]!.id}`, { headers: auth }).then((r) =>
          r.json() as Promise<{ courses: Array<unknown> }>
        )
      )
      const page: any = yield* project.client.unified_lms.lms_list_user_assignments({
        headers: { "x-account-id": lms.id },
        path: { id: String(users[0]!.id) },
        urlParams: { page_size: 200 }
      })
      expect(page.data).toHaveLength(user.courses.length)
      for (const assignment of page.data) expect(assignment.status).toMatchObject({ source_value: expect.anything() })
    }))
})
