import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { LOOK_ALIKES } from "@switchyard/sandbox"
import { Effect, Layer } from "effect"
import { countAccounts, freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send } from "./support/Wire.js"

/*
 * The connect page links each look-alike's connector (Ashby, Workable, SmartRecruiters, ...) as an
 * end user would: the session offers the connector with the fields its authentication declares,
 * the credentials the provider gave are checked against the provider before anything is stored,
 * and the account answers unified calls; a wrong secret is refused in the provider's words.
 */

const Server = Layer.merge(
  TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", SWITCHYARD_PUBLIC_URL: "https://connect.example.com" }),
  SandboxLive(33)
)

const post = (path: string, body: unknown) => send(HttpClientRequest.post(path).pipe(json(body)))

interface OfferedField {
  readonly key: string
  readonly required: boolean
  readonly secret: boolean
}

layer(Server, { excludeTestServices: true })("the connect page links the look-alikes' connectors", (it) => {
  for (const lookAlike of LOOK_ALIKES) {
    it.effect(`${lookAlike.provider}: offered with its fields, linked with the provider's credentials, a wrong secret refused`, () =>
      Effect.gen(function*() {
        const sandbox = yield* SandboxProviders
        const info = sandbox.lookAlikes[lookAlike.provider]!
        const project = yield* freshProject
        yield* project.client.connector_profiles.create_connector_profile({
          urlParams: {},
          payload: { connector_key: lookAlike.provider, label: "Recruiting", account_settings: { base_url: info.baseUrl } }
        })
        const mint = () =>
          project.client.connect_sessions.create_connect_session({
            payload: { origin_owner_id: `owner-${lookAlike.provider}`, origin_owner_name: "Acme Inc" }
          })

        const session = yield* mint()
        const offered = yield* post("/connect_sessions/authenticate", { token: session.token })
        expect(offered.status, offered.text).toBe(200)
        const [connector] = (offered.json as { connectors: Array<any> }).connectors
        expect(connector).toMatchObject({ key: lookAlike.provider, icon_url: `https://connect.example.com/connect/icons/${lookAlike.provider}.svg` })
        const icon = yield* send(HttpClientRequest.get(`/connect/icons/${lookAlike.provider}.svg`))
        expect([icon.status, icon.headers["content-type"]]).toEqual([200, expect.stringContaining("image/svg+xml")])
        const fields = (connector.authentication as Array<{ fields: Array<OfferedField> }>).flatMap((method) => method.fields)
        // every credential the provider hands out has its field on the page, and every required field is one of them
        expect(Object.keys(info.credentials).filter((key) => !fields.some((field) => field.key === key))).toEqual([])
        expect(fields.filter((field) => field.required && !(field.key in info.credentials)).map((field) => field.key)).toEqual([])
        const secrets = fields.filter((field) => field.secret).map((field) => field.key)
        expect(secrets.length).toBeGreaterThan(0)

        // a wrong secret: the provider is asked, refuses, and nothing is stored
        const wrong = Object.fromEntries(
          Object.entries(info.credentials).map(([key, value]) => [key, secrets.includes(key) ? `wrong-${value.slice(0, 4)}` : value])
        )
        sandbox.clearRequests()
        const refused = yield* post("/connect_sessions/link", { token: session.token, connector_key: lookAlike.provider, credentials: wrong })
        const error = expectErrorBody(refused, 400, { providerDetails: true })
        expect(error.message).toMatch(/ refused the credentials: /)
        expect(sandbox.requests(lookAlike.provider).length).toBeGreaterThan(0)
        for (const key of secrets) expect(refused.text).not.toContain(wrong[key])
        expect(yield* countAccounts(project.projectId)).toBe(0)

        // the provider's credentials: checked with the provider, then linked
        sandbox.clearRequests()
        const linked = yield* post("/connect_sessions/link", {
          token: session.token,
          connector_key: lookAlike.provider,
          credentials: info.credentials
        })
        expect(linked.status, linked.text).toBe(200)
        expect(sandbox.requests(lookAlike.provider).length).toBeGreaterThan(0)
        const { account_id } = linked.json as { account_id: string }
        for (const key of secrets) expect(linked.text).not.toContain(info.credentials[key])
        const account = yield* project.client.accounts.get_account({ path: { id: account_id }, urlParams: {} })
        expect(account).toMatchObject({ connector_key: lookAlike.provider, status: "active", owner_id: `owner-${lookAlike.provider}` })
        const candidates = yield* project.client.unified_ats.ats_list_candidates({
          headers: { "x-account-id": account_id },
          urlParams: { page_size: 2 }
        })
        expect(candidates.data).toHaveLength(2)
      }))
  }
})
