import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { Effect } from "effect"
import { ProjectsRepo } from "../src/features/projects/ProjectsRepo.js"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { accountBody, asPage, clientFor, freshProject, otherProject, records } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

layer(TestServer(), { excludeTestServices: true })("connectors", (it) => {
  it.effect("ships the built-in connectors with versions and changelogs", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const all = records(yield* client.connectors.list_connectors({ urlParams: {} }))
      expect(all.map((c) => c.id)).toEqual([
        "ashby@1.0.0~builtin",
        "bamboohr@1.5.0~builtin",
        "deel@1.1.0~builtin",
        "factorial@1.2.0~builtin",
        "greenhouse@1.4.0~builtin",
        "gusto@1.1.0~builtin",
        "hibob@1.1.0~builtin",
        "lever@1.1.0~builtin",
        "litmos@1.2.0~builtin",
        "namely@1.1.0~builtin",
        "paylocity@1.0.0~builtin",
        "personio@1.1.0~builtin",
        "personio_recruiting@1.1.0~builtin",
        "recruitee@1.1.0~builtin",
        "rippling@1.2.0~builtin",
        "smartrecruiters@1.0.0~builtin",
        "successfactors@1.1.0~builtin",
        "talentlms@1.3.0~builtin",
        "teamtailor@1.0.0~builtin",
        "thinkific@1.2.0~builtin",
        "workable@1.0.0~builtin",
        "workday@1.0.0~builtin"
      ])
      expect(all.every((c) => c.actions === null && c.versions === null && c.accounts_count === null)).toBe(true)

      const greenhouse = yield* client.connectors.get_connector({
        path: { id: "greenhouse@1.1.0" },
        urlParams: { expand: ["versions", "changelog", "actions"] }
      })
      expect(greenhouse).toMatchObject({
        key: "greenhouse",
        version: "1.1.0",
        owner: "builtin",
        title: "Greenhouse",
        categories: ["ats"],
        documentation_url: "https://developers.greenhouse.io/harvest.html"
      })
      expect(greenhouse.versions!.map((v) => v.version)).toEqual(["1.4.0", "1.3.0", "1.2.0", "1.1.0", "1.0.0"])
      expect(greenhouse.changelog!.map((entry) => entry.version)).toEqual(["1.4.0", "1.3.0", "1.2.0", "1.1.0", "1.0.0"])
      expect(greenhouse.changelog!.slice(-2).map((entry) => [entry.version, entry.affected_actions])).toEqual([
        ["1.1.0", ["ats_list_candidates"]],
        ["1.0.0", ["ats_list_applications", "ats_get_application"]]
      ])
      expect(greenhouse.authentication_methods).toEqual([{
        key: "apiKey",
        type: "custom",
        label: "Harvest API key",
        authorization_type: "basic",
        config_fields: [expect.objectContaining({ key: "apiKey", secret: true, required: true })]
      }])
      expect(greenhouse.actions!.actions.map((a) => a.id)).toEqual([
        "ats_list_applications",
        "ats_get_application",
        "ats_list_candidates"
      ])
      expect(greenhouse.actions!.event_actions).toEqual([])
      expect(greenhouse.enabled_actions_count).toBeNull()
    }))

  it.effect("says how a built-in version is verified, as its definition declares", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const greenhouse = yield* client.connectors.get_connector({ path: { id: "greenhouse@1.1.0" }, urlParams: {} })
      expect(greenhouse.verification).toEqual({
        level: "documentation",
        document: null,
        documents: [],
        document_url: null,
        sources: [
          "https://developers.greenhouse.io/harvest.html#authentication",
          "https://developers.greenhouse.io/harvest.html#get-list-applications",
          "https://developers.greenhouse.io/harvest.html#get-retrieve-application",
          "https://developers.greenhouse.io/harvest.html#get-list-candidates"
        ]
      })
      // a contract-level version names the provider's document it is checked against (ProviderContracts.test.ts)
      const bamboohr = yield* client.connectors.get_connector({ path: { id: "bamboohr@1.3.0" }, urlParams: {} })
      expect(bamboohr.verification).toEqual({
        level: "contract",
        document: "packages/connectors/provider-documents/bamboohr/public.yaml",
        documents: ["packages/connectors/provider-documents/bamboohr/public.yaml"],
        document_url: "https://github.com/BambooHR/bhr-api-php/blob/a6a10ca26972470d31d494b9caaf7e5db9eaf945/specs/public.yaml",
        sources: []
      })
      // one checked against several documents of its provider names them all, the first as `document`
      const successfactors = yield* client.connectors.get_connector({ path: { id: "successfactors@1.1.0" }, urlParams: {} })
      expect(successfactors.verification).toEqual({
        level: "contract",
        document: "packages/connectors/provider-documents/successfactors/ECEmploymentInformation.json",
        documents: [
          "packages/connectors/provider-documents/successfactors/ECEmploymentInformation.json",
          "packages/connectors/provider-documents/successfactors/ECPositionManagement.json"
        ],
        document_url: "https://github.com/RDPerera/module-ballerinax-sap.successfactors.employeecentral/tree/dbcf27c92cf95d6bd46b2530c2a1bdf7c4a1a250/docs/spec",
        sources: []
      })
      // the catalog shares the schema: every built-in there says how it is verified
      const listed = records(yield* client.connectors.list_connectors({ urlParams: {} }))
      for (const connector of listed) {
        expect(connector.verification.level, connector.id).not.toBe("community")
        expect(connector.verification.sources.length + (connector.verification.document === null ? 0 : 1), connector.id)
          .toBeGreaterThan(0)
      }
    }))

  it.effect("a custom connector is community, whatever its definition claims", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const community = { level: "community", document: null, documents: [], document_url: null, sources: [] }
      const claimsContract = connectorYaml({
        key: "claims-contract",
        version: "1.0.0",
        verification: [
          "level: contract",
          "document: acme/openapi.yaml",
          "source: https://github.com/acme/api/blob/0123abc/openapi.yaml"
        ]
      })
      const created = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: claimsContract } })
      expect(created.verification).toEqual(community)
      const fetched = yield* client.connectors.get_connector({ path: { id: "claims-contract" }, urlParams: {} })
      expect(fetched.verification).toEqual(community)

      // a built-in's YAML, block and all, uploads as a custom connector, which is community
      const builtin = builtinConnectorSources().find((source) => source.file.endsWith("greenhouse/1.0.0.yaml"))!
      expect(builtin.yaml).toContain("  verification:\n    level: documentation")
      const uploaded = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: builtin.yaml } })
      expect(uploaded).toMatchObject({ id: "greenhouse@1.0.0~custom", verification: community })
      const shipped = yield* client.connectors.get_connector({ path: { id: "greenhouse@1.0.0~builtin" }, urlParams: {} })
      expect(shipped.verification.level).toBe("documentation")
      // the same file: the same content hash as the built-in it came from
      expect(uploaded.content_hash).toBe(shipped.content_hash)
    }))

  it.effect("refuses a verification block that breaks its level's rules with 422, naming the key and line", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const register = (verification: ReadonlyArray<string>) =>
        client.connectors.create_connector({
          urlParams: {},
          payload: { yaml: connectorYaml({ key: "bad-verification", version: "1.0.0", verification }) }
        }).pipe(Effect.flip)
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
        [["level: verified"], /info\.verification\.level: expected one of contract, documentation, community \(line 10, col 12\)/],
        [["level: contract"], /info\.verification\.document: contract level names the provider's OpenAPI document/],
        [["level: documentation"], /info\.verification\.sources: documentation level cites at least one https page/],
        [["level: documentation", "sources: [http://docs.example.com]"], /info\.verification\.sources\[0\]: "http:\/\/docs\.example\.com" is not an https URL/],
        [["level: contract", "document: ../../etc/passwd"], /info\.verification\.document: "\.\.\/\.\.\/etc\/passwd" is not a relative path/],
        [["level: community", "document: acme/openapi.yaml"], /info\.verification\.document: document belongs to contract level only, not community/]
      ]
      for (const [block, message] of cases) {
        const refused = yield* register(block)
        expect(refused._tag, block.join("; ")).toBe("UnprocessableEntity")
        expect(refused.message, block.join("; ")).toMatch(message)
      }
      const list = yield* client.connectors.list_connectors({ urlParams: {} })
      expect(records(list).map((c) => c.key)).not.toContain("bad-verification")
    }))

  it.effect("a credential field shows as secret unless its connector declares secret: false", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const subdomain = (version: string) =>
        Effect.map(
          client.connectors.get_connector({ path: { id: `bamboohr@${version}` }, urlParams: {} }),
          (connector) => connector.authentication_methods[0]!.config_fields.find((field) => field.key === "subdomain")
        )
      // 1.1.0 leaves the flag out: shown (and redacted) as a secret; 1.2.0 declares it plain
      expect(yield* subdomain("1.1.0")).toMatchObject({ secret: true })
      expect(yield* subdomain("1.2.0")).toMatchObject({ secret: false })
    }))

  it.effect("resolves ids key[@version][~owner] with query overrides", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const get = (id: string, urlParams: { version?: string; owner?: string } = {}) =>
        client.connectors.get_connector({ path: { id }, urlParams }).pipe(Effect.map((c) => c.id))
      expect(yield* get("greenhouse@1.0.0")).toBe("greenhouse@1.0.0~builtin")
      expect(yield* get("greenhouse~builtin")).toBe("greenhouse@1.4.0~builtin")
      expect(yield* get("greenhouse@latest")).toBe("greenhouse@1.4.0~builtin")
      expect(yield* get("greenhouse@1.1.0~builtin", { version: "1.0.0" })).toBe("greenhouse@1.0.0~builtin")
      expect(yield* get("greenhouse@1.0.0", { version: "latest" })).toBe("greenhouse@1.4.0~builtin")
      expect(yield* get("greenhouse~custom", { owner: "builtin" })).toBe("greenhouse@1.4.0~builtin")

      const customOnly = yield* get("greenhouse~custom").pipe(Effect.flip)
      expect(customOnly._tag).toBe("NotFound")
      const unknownOwner = yield* get("greenhouse~acme").pipe(Effect.flip)
      expect(unknownOwner._tag).toBe("BadRequest")
      expect(unknownOwner.message).toContain("acme")
      const unknownVersion = yield* get("greenhouse@9.9.9").pipe(Effect.flip)
      expect(unknownVersion._tag).toBe("NotFound")
      const unknownKey = yield* get("nope").pipe(Effect.flip)
      expect(unknownKey._tag).toBe("NotFound")
      const malformed = yield* get("Not A Key").pipe(Effect.flip)
      expect(malformed._tag).toBe("BadRequest")
    }))

  it.effect("a project's custom connector takes precedence over the built-in with the same key", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const created = yield* client.connectors.create_connector({
        urlParams: {},
        payload: { yaml: connectorYaml({ key: "greenhouse", version: "0.1.0", title: "Our Greenhouse" }) }
      })
      expect(created).toMatchObject({ id: "greenhouse@0.1.0~custom", owner: "custom", title: "Our Greenhouse" })
      const get = (id: string) => client.connectors.get_connector({ path: { id }, urlParams: {} }).pipe(Effect.map((c) => c.id))
      expect(yield* get("greenhouse")).toBe("greenhouse@0.1.0~custom")
      expect(yield* get("greenhouse~builtin")).toBe("greenhouse@1.4.0~builtin")
      // Automatic resolution of a version only the built-in has falls back to it.
      expect(yield* get("greenhouse@1.0.0")).toBe("greenhouse@1.0.0~builtin")
      const listed = records(yield* client.connectors.list_connectors({ urlParams: { key: ["greenhouse"] } }))
      expect(listed.map((c) => c.id)).toEqual(["greenhouse@0.1.0~custom", "greenhouse@1.4.0~builtin"])
      const versions = yield* client.connectors.list_connector_versions({ path: { id: "greenhouse@whatever~custom" } })
      expect(versions.map((v) => `${v.version}~${v.owner}`)).toEqual(["1.4.0~builtin", "1.3.0~builtin", "1.2.0~builtin", "1.1.0~builtin", "1.0.0~builtin", "0.1.0~custom"])
    }))

  it.effect("the versions of an unknown connector are a 404, as the connector itself", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      for (const id of ["no-such-connector", "no-such-connector@1.0.0"]) {
        const versions = expectErrorBody(yield* send(HttpClientRequest.get(`/v2/connectors/${id}/versions`).pipe(withKey(key))), 404)
        expect(versions.message).toBe(`Connector ${id.split("@")[0]} not found`)
        expectErrorBody(yield* send(HttpClientRequest.get(`/v2/connectors/${id}`).pipe(withKey(key))), 404)
      }
      const builtin = yield* send(HttpClientRequest.get("/v2/connectors/bamboohr/versions").pipe(withKey(key)))
      expect(builtin.status).toBe(200)
      expect((builtin.json as Array<{ version: string }>).map((v) => v.version)).toEqual(["1.5.0", "1.4.0", "1.3.0", "1.2.0", "1.1.0", "1.0.0"])
    }))

  it.effect("orders versions by semver, including pre-releases, and enforces increments unless forced", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const register = (version: string, force?: boolean) =>
        client.connectors.create_connector({
          urlParams: {},
          payload: { yaml: connectorYaml({ key: "semver-test", version }), ...(force === undefined ? {} : { force }) }
        })
      yield* register("1.0.0")
      yield* register("1.2.0")
      yield* register("1.10.0")
      const lower = yield* register("1.9.0").pipe(Effect.flip)
      expect(lower._tag).toBe("Conflict")
      expect(lower.message).toContain("1.10.0")
      expect((yield* register("1.9.0", true)).version).toBe("1.9.0")
      yield* register("2.0.0-beta.2")
      yield* register("2.0.0-beta.10")
      const belowPrerelease = yield* register("1.11.0").pipe(Effect.flip)
      expect(belowPrerelease._tag).toBe("Conflict")
      const versions = yield* client.connectors.list_connector_versions({ path: { id: "semver-test" } })
      expect(versions.map((v) => v.version)).toEqual(["2.0.0-beta.10", "2.0.0-beta.2", "1.10.0", "1.9.0", "1.2.0", "1.0.0"])
      // latest prefers the highest stable version over pre-releases.
      const latest = yield* client.connectors.get_connector({ path: { id: "semver-test@latest" }, urlParams: {} })
      expect(latest.version).toBe("1.10.0")
      const prerelease = yield* client.connectors.get_connector({ path: { id: "semver-test@2.0.0-beta.10" }, urlParams: {} })
      expect(prerelease.version).toBe("2.0.0-beta.10")
    }))

  it.effect("versions are immutable: a conflict is 409 even with force; identical content is idempotent", () =>
    Effect.gen(function*() {
      const { client, projectId } = yield* freshProject
      const yaml = connectorYaml({ key: "immutable-test", version: "1.0.0" })
      const first = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml } })
      const again = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: `# same content\n${yaml}` } })
      expect(again.content_hash).toBe(first.content_hash)
      expect(again.created_at).toBe(first.created_at)
      const changed = connectorYaml({ key: "immutable-test", version: "1.0.0", description: "Changed" })
      for (const force of [false, true]) {
        const conflict = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: changed, force } })
          .pipe(Effect.flip)
        expect(conflict._tag).toBe("Conflict")
        expect(conflict.message).toContain("immutable")
      }
      const stored = yield* client.connectors.get_connector({ path: { id: "immutable-test@1.0.0" }, urlParams: {} })
      expect(stored.description).toBe("A custom connector for tests")

      // With immutable versioning off, force replaces the content of that version.
      const projects = yield* ProjectsRepo
      yield* projects.setImmutableVersioning(projectId, false)
      const unforced = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: changed } })
        .pipe(Effect.flip)
      expect(unforced._tag).toBe("Conflict")
      const replaced = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: changed, force: true } })
      expect(replaced.description).toBe("Changed")
      expect(replaced.content_hash).not.toBe(first.content_hash)
      const versions = yield* client.connectors.list_connector_versions({ path: { id: "immutable-test" } })
      expect(versions).toHaveLength(1)
    }))

  it.effect("two simultaneous registrations of the same next version end with exactly one winner", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: connectorYaml({ key: "race", version: "1.0.0" }) } })
      for (let round = 0; round < 5; round++) {
        const version = `1.${round + 1}.0`
        const outcomes = yield* Effect.all(
          ["A", "B"].map((who) =>
            client.connectors.create_connector({
              urlParams: {},
              payload: { yaml: connectorYaml({ key: "race", version, description: `by ${who}` }) }
            }).pipe(Effect.either)
          ),
          { concurrency: 2 }
        )
        const winners = outcomes.filter((o) => o._tag === "Right")
        const losers = outcomes.filter((o) => o._tag === "Left")
        expect(winners).toHaveLength(1)
        expect(losers.map((o) => o._tag === "Left" && o.left._tag)).toEqual(["Conflict"])
      }
      const versions = yield* client.connectors.list_connector_versions({ path: { id: "race" } })
      expect(versions.map((v) => v.version)).toEqual(["1.5.0", "1.4.0", "1.3.0", "1.2.0", "1.1.0", "1.0.0"])
    }))

  it.effect("deletes exactly key@version of a custom connector, never a built-in or one in use", () =>
    Effect.gen(function*() {
      const { client, projectId } = yield* freshProject
      yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: connectorYaml({ key: "deletable", version: "1.0.0" }) } })
      yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: connectorYaml({ key: "deletable", version: "1.1.0" }) } })
      const del = (id: string) => client.connectors.delete_connector({ path: { id } }).pipe(Effect.flip)
      expect((yield* del("greenhouse@1.0.0"))._tag).toBe("Forbidden")
      expect((yield* del("deletable"))._tag).toBe("BadRequest")
      expect((yield* del("deletable@1.0.0~custom"))._tag).toBe("BadRequest")
      expect((yield* del("deletable@latest"))._tag).toBe("BadRequest")
      expect((yield* del("deletable@3.0.0"))._tag).toBe("NotFound")

      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "deletable", label: "Pinned", version: "1.0.0" }
      })
      const inUse = yield* del("deletable@1.0.0")
      expect(inUse._tag).toBe("Conflict")
      expect(inUse.message).toContain(profile.id)
      // The profile resolves 1.0.0 only; 1.1.0 is free.
      yield* client.connectors.delete_connector({ path: { id: "deletable@1.1.0" } })
      // An account linked directly to a version also keeps it.
      yield* client.connector_profiles.update_connector_profile({
        path: { id: profile.id },
        urlParams: {},
        payload: { version: "latest" }
      })
      yield* client.accounts.create_account({ payload: accountBody({ connector_key: "deletable", connector_version: "1.0.0" }) })
      expect((yield* del("deletable@1.0.0"))._tag).toBe("Conflict")
      void projectId
    }))

  it.effect("custom connectors are invisible to other projects, in the organization or outside it", () =>
    Effect.gen(function*() {
      const a = yield* freshProject
      yield* a.client.connectors.create_connector({ urlParams: {}, payload: { yaml: connectorYaml({ key: "secret-sauce", version: "1.0.0" }) } })
      for (const b of [yield* freshProject, yield* otherProject.pipe(Effect.flatMap(({ key }) => Effect.map(clientFor(key), (client) => ({ client }))))]) {
        const listed = records(yield* b.client.connectors.list_connectors({ urlParams: {} }))
        expect(listed.map((c) => c.key)).not.toContain("secret-sauce")
        expect((yield* b.client.connectors.get_connector({ path: { id: "secret-sauce" }, urlParams: {} }).pipe(Effect.flip))._tag)
          .toBe("NotFound")
        expect((yield* b.client.connectors.list_connector_versions({ path: { id: "secret-sauce" } }).pipe(Effect.flip))._tag)
          .toBe("NotFound")
        expect((yield* b.client.connectors.delete_connector({ path: { id: "secret-sauce@1.0.0" } }).pipe(Effect.flip))._tag)
          .toBe("NotFound")
        const profile = yield* b.client.connector_profiles.create_connector_profile({
          urlParams: {},
          payload: { connector_key: "secret-sauce", label: "x" }
        }).pipe(Effect.flip)
        expect(profile._tag).toBe("UnprocessableEntity")
      }
    }))

  it.effect("an action and an event action, with steps and result only when expanded", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: connectorYaml({ key: "actions-test", version: "1.0.0" }) } })
      const plain = yield* client.connectors.get_connector_action({
        path: { id: "actions-test", actionId: "get_thing" },
        urlParams: {}
      })
      expect(plain).toMatchObject({
        id: "get_thing",
        connector_key: "actions-test",
        connector_version: "1.0.0",
        owner: "custom",
        action_type: "get",
        required_scopes: ["read"],
        steps: null,
        result: null
      })
      expect(plain.inputs).toEqual([
        { name: "id", type: "string", in: "path", required: true, array: false, description: null, values: null }
      ])
      const expanded = yield* client.connectors.get_connector_action({
        path: { id: "actions-test", actionId: "get_thing" },
        urlParams: { expand: ["steps", "result"] }
      })
      expect(expanded.steps).toHaveLength(1)
      expect(expanded.result).toEqual({ data: "$.steps.fetch.output.data" })
      const event = yield* client.connectors.get_connector_event_action({
        path: { id: "actions-test", eventId: "thing_changed" },
        urlParams: {}
      })
      expect(event).toMatchObject({ id: "thing_changed", action_type: "event" })
      const missing = yield* client.connectors.get_connector_action({
        path: { id: "actions-test", actionId: "thing_changed" },
        urlParams: {}
      }).pipe(Effect.flip)
      expect(missing._tag).toBe("NotFound")
    }))

  it.effect("connector_profile_id needs expand=actions and flags enabled actions first", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Only candidates", version: "1.1.0", enabled_actions: ["ats_list_candidates"] }
      })
      const withoutExpand = yield* client.connectors.get_connector({
        path: { id: "greenhouse@1.1.0" },
        urlParams: { connector_profile_id: profile.id }
      }).pipe(Effect.flip)
      expect(withoutExpand._tag).toBe("BadRequest")
      expect(withoutExpand.message).toContain("expand=actions")
      const flagged = yield* client.connectors.get_connector({
        path: { id: "greenhouse@1.1.0" },
        urlParams: { connector_profile_id: profile.id, expand: ["actions"] }
      })
      expect(flagged.actions!.actions.map((a) => [a.id, a.enabled])).toEqual([
        ["ats_list_candidates", true],
        ["ats_list_applications", false],
        ["ats_get_application", false]
      ])
      expect(flagged.enabled_actions_count).toBe(1)
      const otherKey = yield* client.connectors.get_connector({
        path: { id: "bamboohr" },
        urlParams: { connector_profile_id: profile.id, expand: ["actions"] }
      }).pipe(Effect.flip)
      expect(otherKey._tag).toBe("BadRequest")
    }))

  it.effect("counts usage and sorts by it when counts are expanded", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      yield* client.accounts.create_account({ payload: accountBody({ connector_key: "talentlms" }) })
      yield* client.accounts.create_account({ payload: accountBody({ connector_key: "talentlms" }) })
      yield* client.connector_profiles.create_connector_profile({ urlParams: {}, payload: { connector_key: "bamboohr", label: "HR" } })
      const sorted = asPage(yield* client.connectors.list_connectors({
        urlParams: { page: 1, page_size: 2, expand: ["accounts_count", "connector_profiles_count"] }
      }))
      expect(sorted).toMatchObject({ page: 1, page_size: 2, total: 22, next_page: 2 })
      expect(sorted.data.map((c) => [c.key, c.accounts_count, c.connector_profiles_count])).toEqual([
        ["talentlms", 2, 0],
        ["bamboohr", 0, 1]
      ])
      const byCategory = records(yield* client.connectors.list_connectors({ urlParams: { category: ["hris", "lms"] } }))
      expect(byCategory.map((c) => c.key)).toEqual(["bamboohr", "deel", "factorial", "gusto", "hibob", "litmos", "namely", "paylocity", "personio", "rippling", "successfactors", "talentlms", "thinkific", "workday"])
    }))

  it.effect("the create body is exactly one of the two shapes", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      const post = (body: unknown) =>
        send(HttpClientRequest.post("/v2/connectors").pipe(json(body)).pipe(withKey(key)))
      const yaml = connectorYaml({ key: "shape", version: "1.0.0" })
      for (
        const body of [
          {},
          { yaml, mcp_server_url: "https://mcp.example.com" },
          { yaml, extra: 1 },
          { yaml: "" },
          { mcp_server_url: "ftp://example.com" },
          { mcp_server_url: "https://mcp.example.com", force: true },
          { mcp_server_url: "https://mcp.example.com", title: "" }
        ]
      ) {
        const response = yield* post(body)
        expect({ body, status: response.status }).toEqual({ body, status: 400 })
        expectErrorBody(response, 400)
      }
    }))

  it.effect("rejects malformed or hostile YAML with 422, path and line, and stays responsive", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const register = (yaml: string) =>
        client.connectors.create_connector({ urlParams: {}, payload: { yaml } }).pipe(Effect.flip)
      const missingUrl = connectorYaml({ key: "broken", version: "1.0.0" }).replace("            url: /things/${inputs.id}\n", "")
      const missing = yield* register(missingUrl)
      expect(missing._tag).toBe("UnprocessableEntity")
      expect(missing.message).toMatch(/actions\[0\]\.steps\[0\]\.stepFunction\.parameters\.url: .*line \d+/)
      const badExpression = yield* register(
        connectorYaml({ key: "broken", version: "1.0.0" }).replace("data: $.steps.fetch.output.data", "data: '{{ a + }}'")
      )
      expect(badExpression._tag).toBe("UnprocessableEntity")
      expect(badExpression.message).toContain("result.data")
      const syntax = yield* register("StackOne: 1.0.0\ninfo: [unclosed\n")
      expect(syntax._tag).toBe("UnprocessableEntity")
      expect(syntax.message).toMatch(/line \d+/)
      const bomb = [
        "a: &a [x, x, x, x, x, x, x, x, x, x]",
        ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]`)
      ].join("\n")
      expect((yield* register(bomb))._tag).toBe("UnprocessableEntity")
      const deep = `StackOne: 1.0.0\nx: ${"[".repeat(500)}${"]".repeat(500)}\n`
      expect((yield* register(deep))._tag).toBe("UnprocessableEntity")
      const huge = `StackOne: 1.0.0\n# ${"x".repeat(3 * 1024 * 1024)}\n`
      const tooBig = yield* register(huge)
      expect(tooBig._tag).toBe("UnprocessableEntity")
      expect(tooBig.message).toMatch(/document is \d+ bytes; at most \d+ allowed/)
      const list = yield* client.connectors.list_connectors({ urlParams: {} })
      expect(records(list).map((c) => c.key)).not.toContain("broken")
      expect((yield* client.system.healthz()).status).toBe("ok")
    }))
})
