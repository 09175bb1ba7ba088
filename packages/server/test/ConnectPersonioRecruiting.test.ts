import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { readProviderDocument } from "../src/app/contractCheck/ProviderDocument.js"
import { type ProviderMock, startProviderMock } from "../src/app/contractCheck/ProviderMock.js"
import { countAccounts, freshProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send } from "./support/Wire.js"

/*
 * Personio Recruiting linked through the connect page, end to end over sockets: a profile points
 * the connector's API and its career site (the `career_site` server, by its `career_site_base_url`
 * setting) at a mock of Personio's own document, the end user gives the company id, the token and
 * the career site's name, and the account reads the feed's positions as unified jobs, the mock
 * answering in XML as Personio's feed does.
 */

const DOCUMENT = Path.resolve(fileURLToPath(import.meta.url), "../../../connectors/provider-documents/personio-recruiting/personio-recruiting-api.yaml")

class PersonioMock extends Context.Tag("PersonioMock")<PersonioMock, ProviderMock>() {}

const PersonioMockLive = Layer.scoped(
  PersonioMock,
  Effect.flatMap(readProviderDocument(DOCUMENT), (document) => startProviderMock(document.content)).pipe(Effect.orDie)
)

const Server = Layer.merge(
  TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", SWITCHYARD_PUBLIC_URL: "https://connect.example.com" }),
  PersonioMockLive
)

const post = (path: string, body: unknown) => send(HttpClientRequest.post(path).pipe(json(body)))

layer(Server, { excludeTestServices: true })("the connect page links Personio Recruiting", (it) => {
  it.effect("offers its fields, links the token, and the account reads the career site's feed as jobs", () =>
    Effect.gen(function*() {
      const mock = yield* PersonioMock
      const base = mock.baseFor({ seed: "1", profile: "full" })
      const project = yield* freshProject
      yield* project.client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: {
          connector_key: "personio_recruiting",
          label: "Recruiting",
          account_settings: { base_url: base, career_site_base_url: base }
        }
      })
      const session = yield* project.client.connect_sessions.create_connect_session({
        payload: { origin_owner_id: "owner-personio", origin_owner_name: "Acme GmbH" }
      })
      const offered = yield* post("/connect_sessions/authenticate", { token: session.token })
      expect(offered.status, offered.text).toBe(200)
      const [connector] = (offered.json as { connectors: Array<any> }).connectors
      expect(connector).toMatchObject({ key: "personio_recruiting" })
      const fields = (connector.authentication as Array<{ fields: Array<{ key: string; required: boolean; secret: boolean }> }>)
        .flatMap((method) => method.fields)
      expect(fields.filter((field) => field.required).map((field) => field.key).sort()).toEqual(["accessToken", "careerSite", "companyId"])
      expect(fields.filter((field) => field.secret).map((field) => field.key)).toEqual(["accessToken"])

      // the career site's name is required: refused naming it, nothing stored
      const credentials = { companyId: "4711", accessToken: "papi-recruiting-token-123", careerSite: "acme" }
      const { careerSite: _omitted, ...withoutSite } = credentials
      const incomplete = yield* post("/connect_sessions/link", { token: session.token, connector_key: "personio_recruiting", credentials: withoutSite })
      expect(expectErrorBody(incomplete, 400).message).toContain("careerSite")
      expect(yield* countAccounts(project.projectId)).toBe(0)

      mock.takeExchanges()
      const linked = yield* post("/connect_sessions/link", { token: session.token, connector_key: "personio_recruiting", credentials })
      expect(linked.status, linked.text).toBe(200)
      expect(linked.text).not.toContain(credentials.accessToken)
      // no test action: linking asks Personio nothing (its only token operation creates applications)
      expect(mock.takeExchanges()).toEqual([])
      const { account_id } = linked.json as { account_id: string }

      const jobs = yield* project.client.unified_ats.ats_list_jobs({ headers: { "x-account-id": account_id }, urlParams: {} })
      expect(jobs.data.length).toBeGreaterThan(0)
      expect(jobs.data[0]).toMatchObject({ id: expect.any(String), job_status: { value: "published" } })
      const feed = mock.takeExchanges()
      // the feed, read in XML on the career site's server, held to the document: no violations
      expect(feed.map((exchange) => [exchange.method, exchange.operation, exchange.status, exchange.violations])).toEqual([
        ["GET", "/xml", 200, []]
      ])
      const job = yield* project.client.unified_ats.ats_get_job({
        headers: { "x-account-id": account_id },
        path: { id: jobs.data[0]!.id! },
        urlParams: {}
      })
      expect(job.data).toMatchObject({ id: jobs.data[0]!.id })
    }))

  it.effect("refuses a career-site setting that is not an http(s) URL, naming it", () =>
    Effect.gen(function*() {
      const project = yield* freshProject
      const refused = yield* Effect.flip(project.client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: {
          connector_key: "personio_recruiting",
          label: "Recruiting",
          account_settings: { career_site_base_url: "file:///etc/passwd" }
        }
      }))
      expect(JSON.stringify(refused)).toContain("career_site_base_url")
    }))
})
