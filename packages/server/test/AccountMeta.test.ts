import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { accountBody, clientFor, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, send, withKey } from "./support/Wire.js"

const server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive())

layer(server, { excludeTestServices: true })("account meta", (it) => {
  it.effect("names the account's connector and category and the unified operations of its version, by model", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const ats = yield* project.client.accounts.create_account({
        payload: sandboxGreenhouseAccount(sandbox, { connector_version: "1.1.0" })
      })
      const meta = yield* project.client.accounts.get_account_meta({ path: { id: ats.id } })
      expect(meta).toMatchObject({
        provider: "greenhouse",
        provider_name: expect.any(String),
        connector: { key: "greenhouse", version: "1.1.0" },
        category: "ats",
        categories: ["ats"]
      })
      expect(meta.operations).toContainEqual({ id: "ats_list_applications", method: "GET", path: "/unified/ats/applications" })
      expect(meta.operations).toContainEqual({ id: "ats_get_application", method: "GET", path: "/unified/ats/applications/{id}" })
      expect(meta.models.ats_applications!.category).toBe("ats")
      expect(meta.models.ats_applications!.operations.map((operation) => operation.id)).toContain("ats_list_applications")
      // every model's operations are among the flat list, and only operations the version has
      const inModels = Object.values(meta.models).flatMap((model) => model.operations.map((operation) => operation.id))
      expect([...inModels].sort()).toEqual(meta.operations.map((operation) => operation.id).sort())
      const read = yield* project.client.accounts.get_account({ path: { id: ats.id }, urlParams: { expand: ["actions"] } })
      const actionIds = new Set(read.actions!.map((action) => action.id))
      for (const operation of meta.operations) expect(actionIds.has(operation.id)).toBe(true)
      expect(meta.operations.some((operation) => operation.id.startsWith("hris_"))).toBe(false)

      // the newest version serves at least what 1.1.0 does
      const latest = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      const latestMeta = yield* project.client.accounts.get_account_meta({ path: { id: latest.id } })
      expect(latestMeta.connector.version).not.toBe("1.1.0")
      expect(latestMeta.operations.length).toBeGreaterThanOrEqual(meta.operations.length)
    }))

  it.effect("lists only what the account's connector profile enables, as the unified endpoints serve it", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const profile = yield* project.client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Apps", version: "1.1.0", enabled_actions: ["ats_list_applications", "ats_list_candidates"] }
      })
      const linked = yield* project.client.accounts.create_account({
        payload: sandboxGreenhouseAccount(sandbox, { connector_profile_id: profile.id })
      })
      const meta = yield* project.client.accounts.get_account_meta({ path: { id: linked.id } })
      expect(meta.operations.map((operation) => operation.id).sort()).toEqual(["ats_list_applications", "ats_list_candidates"])
      expect(Object.keys(meta.models).sort()).toEqual(["ats_applications", "ats_candidates"])

      const call = (path: string) =>
        send(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeader("x-account-id", linked.id), withKey(project.key)))
      expect((yield* call("/unified/ats/applications?page_size=1")).status).toBe(200)
      expect((yield* call("/unified/ats/applications/1")).status).toBe(403)

      // a disabled integration and a suspended account still answer: a management call
      yield* project.client.connector_profiles.update_connector_profile({ path: { id: profile.id }, urlParams: {}, payload: { active: false } })
      yield* project.client.accounts.patch_account({ path: { id: linked.id }, urlParams: {}, payload: { status: "suspended" } })
      const still = yield* project.client.accounts.get_account_meta({ path: { id: linked.id } })
      expect(still.operations).toHaveLength(2)
    }))

  it.effect("tenancy: another project's account and an unknown id are 404; a Read Only key may read", () =>
    Effect.gen(function*() {
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: accountBody() })
      const other = yield* otherProject
      const foreign = yield* (yield* clientFor(other.key)).accounts.get_account_meta({ path: { id: account.id } }).pipe(Effect.flip)
      expect(foreign._tag).toBe("NotFound")
      expectErrorBody(yield* send(HttpClientRequest.get(`/v2/accounts/${account.id}/meta`).pipe(withKey(other.key))), 404)
      const unknown = yield* project.client.accounts.get_account_meta({ path: { id: "no-such-account" } }).pipe(Effect.flip)
      expect(unknown._tag).toBe("NotFound")
      const readOnly = yield* keyFor(project.projectId, "read_only")
      const read = yield* (yield* clientFor(readOnly.key)).accounts.get_account_meta({ path: { id: account.id } })
      expect(read.provider).toBe("greenhouse")
    }))

  it.effect("an account whose connector version is gone is a 412", () =>
    Effect.gen(function*() {
      const project = yield* freshProject
      const pinned = yield* project.client.accounts.create_account({ payload: accountBody({ connector_version: "1.0.0" }) })
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE accounts SET connector_version = '9.9.9' WHERE id = ${pinned.id}`
      const gone = yield* project.client.accounts.get_account_meta({ path: { id: pinned.id } }).pipe(Effect.flip)
      expect(gone._tag).toBe("PreconditionFailed")
    }))
})
