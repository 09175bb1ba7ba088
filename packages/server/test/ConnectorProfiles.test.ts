import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { accountBody, asPage, freshProject, otherProject, clientFor, records } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

layer(TestServer(), { excludeTestServices: true })("connector profiles", (it) => {
  it.effect("creates a profile on the latest version with every action enabled by default", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: { expand: ["connector", "version", "accounts_count"] },
        payload: { connector_key: "greenhouse", label: "Recruiting" }
      })
      const latest = yield* client.connectors.get_connector({ path: { id: "greenhouse" }, urlParams: { expand: ["actions"] } })
      const every = latest.actions!.actions.map((action) => action.id)
      expect(every.length).toBeGreaterThan(3)
      expect(profile).toMatchObject({
        connector_key: "greenhouse",
        version_spec: "latest",
        label: "Recruiting",
        active: true,
        enabled_actions: every,
        connector: { key: "greenhouse", owner: "builtin", title: "Greenhouse" },
        version: latest.version,
        accounts_count: 0,
        enabled_actions_count: null
      })
      const read = yield* client.connector_profiles.get_connector_profile({
        path: { id: profile.id },
        urlParams: { expand: ["enabled_actions_count"] }
      })
      expect(read.enabled_actions_count).toBe(every.length)
      expect(read.connector).toBeNull()
    }))

  it.effect("resolves exact versions and semver ranges, now and after new versions appear", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const register = (version: string) =>
        client.connectors.create_connector({ urlParams: {}, payload: { yaml: connectorYaml({ key: "ranged", version }) } })
      yield* register("1.0.0")
      yield* register("1.4.0")
      yield* register("2.0.0")
      const create = (version: string) =>
        client.connector_profiles.create_connector_profile({
          urlParams: { expand: ["version"] },
          payload: { connector_key: "ranged", label: version, version }
        })
      expect((yield* create("1.x")).version).toBe("1.4.0")
      expect((yield* create("~1.0.0")).version).toBe("1.0.0")
      expect((yield* create("1.0.0")).version).toBe("1.0.0")
      const latest = yield* create("latest")
      expect(latest.version).toBe("2.0.0")
      const range = yield* create("^1")
      yield* register("2.1.0")
      const reread = (id: string) =>
        client.connector_profiles.get_connector_profile({ path: { id }, urlParams: { expand: ["version"] } })
          .pipe(Effect.map((p) => p.version))
      expect(yield* reread(latest.id)).toBe("2.1.0")
      expect(yield* reread(range.id)).toBe("1.4.0")
      const none = yield* create("3.x").pipe(Effect.flip)
      expect(none._tag).toBe("UnprocessableEntity")
      expect(none.message).toContain("1.0.0, 1.4.0, 2.0.0, 2.1.0")
      const invalid = yield* create("not a version!").pipe(Effect.flip)
      expect(invalid._tag).toBe("UnprocessableEntity")
    }))

  it.effect("rejects unknown connectors and unknown action ids with 422, storing nothing", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const unknownKey = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "nope", label: "x" }
      }).pipe(Effect.flip)
      expect(unknownKey._tag).toBe("UnprocessableEntity")
      const unknownAction = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "x", version: "1.0.0", enabled_actions: ["ats_list_candidates"] }
      }).pipe(Effect.flip)
      expect(unknownAction._tag).toBe("UnprocessableEntity")
      expect(unknownAction.message).toContain("ats_list_candidates")
      expect(yield* client.connector_profiles.list_connector_profiles({ urlParams: {} })).toEqual([])
    }))

  it.effect("setup values are write-only and checked; account_settings URLs are checked; refusals store nothing", () =>
    Effect.gen(function*() {
      const { client, key } = yield* freshProject
      const refuse = (payload: Record<string, unknown>) =>
        client.connector_profiles.create_connector_profile({
          urlParams: {},
          payload: { connector_key: "lever", label: "Lever", ...payload } as any
        }).pipe(Effect.flip)
      const unknownField = yield* refuse({ setup: { clientId: "id", tenant: "t" } })
      expect(unknownField._tag).toBe("UnprocessableEntity")
      expect(unknownField.message).toBe("setup: unknown field(s) tenant; connector lever declares clientId, clientSecret")
      const noSetup = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "x", setup: { clientId: "id" } }
      }).pipe(Effect.flip)
      expect(noSetup.message).toBe("setup: connector greenhouse has no setup fields (got clientId)")
      const badUrl = yield* refuse({ account_settings: { base_url: "file:///etc/passwd" } })
      expect(badUrl.message).toBe("account_settings.base_url must be an absolute http or https URL")
      expect(yield* client.connector_profiles.list_connector_profiles({ urlParams: {} })).toEqual([])

      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: {
          connector_key: "lever",
          label: "Lever",
          setup: { clientId: "client-1", clientSecret: "s3cret-value" },
          account_settings: { base_url: "https://api.sandbox.lever.co/v1" }
        }
      })
      expect(profile).toMatchObject({
        setup_fields_set: ["clientId", "clientSecret"],
        account_settings: { base_url: "https://api.sandbox.lever.co/v1" }
      })
      const read = yield* send(HttpClientRequest.get(`/v2/connector_profiles/${profile.id}`).pipe(withKey(key)))
      expect(read.status).toBe(200)
      expect(read.text).not.toContain("s3cret-value")
      // an empty value removes a field, others are kept
      const updated = yield* client.connector_profiles.update_connector_profile({
        path: { id: profile.id },
        urlParams: {},
        payload: { setup: { clientSecret: "" } }
      })
      expect(updated.setup_fields_set).toEqual(["clientId"])
    }))

  it.effect("lists with filters, pages and expansions", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const a = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "A" }
      })
      yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "bamboohr", label: "B", active: false }
      })
      yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "C", enabled_actions: [] }
      })
      yield* client.accounts.create_account({ payload: accountBody({ connector_profile_id: a.id }) })
      const labels = (urlParams: Parameters<typeof client.connector_profiles.list_connector_profiles>[0]["urlParams"]) =>
        Effect.map(client.connector_profiles.list_connector_profiles({ urlParams }), (r) => records(r).map((p) => p.label))
      expect(yield* labels({})).toEqual(["A", "B", "C"])
      expect(yield* labels({ connector_key: ["greenhouse"] })).toEqual(["A", "C"])
      expect(yield* labels({ active: false })).toEqual(["B"])
      expect(yield* labels({ active: true, connector_key: ["bamboohr"] })).toEqual([])
      const paged = asPage(yield* client.connector_profiles.list_connector_profiles({
        urlParams: { page: 2, page_size: 2, expand: ["accounts_count", "enabled_actions_count", "version", "connector"] }
      }))
      expect(paged).toMatchObject({ page: 2, page_size: 2, total: 3, next_page: null })
      expect(paged.data.map((p) => [p.label, p.accounts_count, p.enabled_actions_count, p.version])).toEqual([
        ["C", 0, 0, "1.4.0"]
      ])
      const first = asPage(yield* client.connector_profiles.list_connector_profiles({
        urlParams: { page: 1, page_size: 2, expand: ["accounts_count"] }
      }))
      expect(first.data.map((p) => [p.label, p.accounts_count])).toEqual([["A", 1], ["B", 0]])
    }))

  it.effect("updates label, version, active and enabled actions, validating them", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Old", version: "1.0.0" }
      })
      const updated = yield* client.connector_profiles.update_connector_profile({
        path: { id: profile.id },
        urlParams: { expand: ["version", "enabled_actions_count"] },
        payload: { label: "New", version: "1.1.0", active: false, enabled_actions: ["ats_list_candidates"] }
      })
      expect(updated).toMatchObject({
        label: "New",
        version_spec: "1.1.0",
        version: "1.1.0",
        active: false,
        enabled_actions: ["ats_list_candidates"],
        enabled_actions_count: 1
      })
      const badAction = yield* client.connector_profiles.update_connector_profile({
        path: { id: profile.id },
        urlParams: {},
        payload: { version: "1.0.0" }
      }).pipe(Effect.flip)
      expect(badAction._tag).toBe("UnprocessableEntity")
      const unchanged = yield* client.connector_profiles.get_connector_profile({ path: { id: profile.id }, urlParams: {} })
      expect(unchanged.version_spec).toBe("1.1.0")
      const missing = yield* client.connector_profiles.update_connector_profile({
        path: { id: "6f1c2f7e-8a0a-4c55-9a43-9f0f6a3c1b2d" },
        urlParams: {},
        payload: { label: "x" }
      }).pipe(Effect.flip)
      expect(missing._tag).toBe("NotFound")
    }))

  it.effect("deletes a profile unless accounts use it", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Used" }
      })
      const account = yield* client.accounts.create_account({ payload: accountBody({ connector_profile_id: profile.id }) })
      const inUse = yield* client.connector_profiles.delete_connector_profile({ path: { id: profile.id } }).pipe(Effect.flip)
      expect(inUse._tag).toBe("Conflict")
      yield* client.accounts.delete_account({ path: { id: account.id } })
      yield* client.connector_profiles.delete_connector_profile({ path: { id: profile.id } })
      const gone = yield* client.connector_profiles.get_connector_profile({ path: { id: profile.id }, urlParams: {} })
        .pipe(Effect.flip)
      expect(gone._tag).toBe("NotFound")
    }))

  it.effect("profiles belong to their project", () =>
    Effect.gen(function*() {
      const a = yield* freshProject
      const profile = yield* a.client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "A's" }
      })
      const other = yield* otherProject
      const b = yield* clientFor(other.key)
      expect(yield* b.connector_profiles.list_connector_profiles({ urlParams: {} })).toEqual([])
      for (
        const attempt of [
          b.connector_profiles.get_connector_profile({ path: { id: profile.id }, urlParams: {} }),
          b.connector_profiles.update_connector_profile({ path: { id: profile.id }, urlParams: {}, payload: { label: "x" } }),
          b.connector_profiles.delete_connector_profile({ path: { id: profile.id } })
        ]
      ) {
        expect((yield* Effect.flip(attempt))._tag).toBe("NotFound")
      }
      const linked = yield* b.accounts.create_account({ payload: accountBody({ connector_profile_id: profile.id }) })
        .pipe(Effect.flip)
      expect(linked._tag).toBe("UnprocessableEntity")
      const still = yield* a.client.connector_profiles.get_connector_profile({ path: { id: profile.id }, urlParams: {} })
      expect(still.label).toBe("A's")
    }))

  it.effect("rejects malformed bodies and ids", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      for (
        const body of [{}, { connector_key: "greenhouse" }, { connector_key: "greenhouse", label: "x", extra: true }, {
          connector_key: "greenhouse",
          label: "x",
          active: "yes"
        }]
      ) {
        const response = yield* send(HttpClientRequest.post("/v2/connector_profiles").pipe(json(body)).pipe(withKey(key)))
        expectErrorBody(response, 400)
      }
      const badId = yield* send(HttpClientRequest.get("/v2/connector_profiles/not-a-uuid").pipe(withKey(key)))
      expectErrorBody(badId, 400)
      const badActive = yield* send(HttpClientRequest.get("/v2/connector_profiles?active=maybe").pipe(withKey(key)))
      expectErrorBody(badActive, 400)
    }))
})

layer(TestServer(), { excludeTestServices: true })("accounts on connectors", (it) => {
  it.effect("links accounts through profiles and expands connector, profile and actions", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Apps only", version: "~1.1.0", enabled_actions: ["ats_get_application"] }
      })
      const viaProfile = yield* client.accounts.create_account({ payload: accountBody({ connector_profile_id: profile.id }) })
      expect(viaProfile).toMatchObject({ connector_version: "1.1.0", connector_profile_id: profile.id })
      const expanded = yield* client.accounts.get_account({
        path: { id: viaProfile.id },
        urlParams: { expand: ["connector", "connector_profile", "actions"] }
      })
      expect(expanded.connector).toMatchObject({ key: "greenhouse", version: "1.1.0", title: "Greenhouse" })
      expect(expanded.connector_profile).toEqual({ id: profile.id, label: "Apps only" })
      expect(expanded.actions!.map((a) => [a.id, a.enabled])).toEqual([
        ["ats_list_applications", false],
        ["ats_get_application", true],
        ["ats_list_candidates", false]
      ])

      const direct = yield* client.accounts.create_account({ payload: accountBody({ connector_key: "greenhouse", connector_version: "1.0.0" }) })
      expect(direct.connector_version).toBe("1.0.0")
      const latest = yield* client.accounts.create_account({ payload: accountBody({ connector_key: "bamboohr" }) })
      expect(latest.connector_version).toBe("1.5.0")
      const listed = records(yield* client.accounts.list_accounts({ urlParams: { expand: ["connector", "actions"] } }))
      expect(listed.map((a) => [a.connector?.version, a.actions?.every((action) => action.enabled)])).toEqual([
        ["1.1.0", false],
        ["1.0.0", true],
        ["1.5.0", true]
      ])
      const plain = yield* client.accounts.get_account({ path: { id: direct.id }, urlParams: {} })
      expect([plain.connector, plain.connector_profile, plain.actions]).toEqual([null, null, null])
    }))

  it.effect("refuses to link unknown connectors, versions, or a profile of another connector", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "bamboohr", label: "HR" }
      })
      for (
        const body of [
          accountBody({ connector_key: "nope" }),
          accountBody({ connector_key: "greenhouse", connector_version: "9.9.9" }),
          accountBody({ connector_key: "greenhouse", connector_profile_id: profile.id }),
          accountBody({ connector_key: "bamboohr", connector_profile_id: profile.id, connector_version: "0.0.1" }),
          accountBody({ connector_profile_id: "6f1c2f7e-8a0a-4c55-9a43-9f0f6a3c1b2d" })
        ]
      ) {
        const refused = yield* client.accounts.create_account({ payload: body }).pipe(Effect.flip)
        expect({ body: body.connector_key, tag: refused._tag }).toEqual({ body: body.connector_key, tag: "UnprocessableEntity" })
      }
      expect(yield* client.accounts.list_accounts({ urlParams: {} })).toEqual([])
    }))
})
