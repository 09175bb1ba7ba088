import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { accountBody, countAccounts, freshProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * POST /v2/accounts checks credentials against the authentication method's fields before
 * anything is stored: 400 naming every missing, unknown or non-string field and the expected
 * ones. Fields come from GET /v2/connectors/{id}.
 */

/** A custom connector whose `authentication:` block is `authentication` (none when empty). */
const withAuthentication = (key: string, authentication: string) => connectorYaml({ key, version: "1.0.0", authentication })

const twoMethods = `authentication:
  - token:
      type: custom
      authorization:
        type: bearer
        token: $.credentials.token
      configFields:
        - key: token
          required: true
  - basic:
      type: custom
      authorization:
        type: basic
        username: $.credentials.username
        password: $.credentials.password
      configFields:
        - key: username
          required: true
        - key: password
          required: true
        - key: realm
`

const clientCredentials = `authentication:
  - machine:
      type: oauth2
      grantType: client_credentials
      tokenUrl: https://auth.example.com/oauth/token
`

const setup = Effect.gen(function*() {
  const project = yield* freshProject
  const post = (body: Record<string, unknown>) =>
    send(HttpClientRequest.post("/v2/accounts").pipe(withKey(project.key), json(body)))
  const register = (yaml: string) => project.client.connectors.create_connector({ urlParams: {}, payload: { yaml } })
  const idOf = (response: { readonly json: unknown }) => (response.json as { readonly id: string }).id
  const storedMethod = (id: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ auth_method: string | null }>`SELECT auth_method FROM accounts WHERE id = ${id}`
      return row!.auth_method
    }).pipe(Effect.orDie)
  return { ...project, post, register, idOf, storedMethod }
})

layer(TestServer(), { excludeTestServices: true })("credentials checked at link time", (it) => {
  it.effect("names every missing, unknown and non-string field at once with the expected ones, and stores nothing", () =>
    Effect.gen(function*() {
      const { post, projectId } = yield* setup
      const expects = `(authentication "apiKey" of greenhouse@1.4.0 expects: apiKey (required), onBehalfOf)`
      const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [{}, `credentials lack apiKey ${expects}`],
        [{ api_key: "gh-secret-value" }, `credentials lack apiKey; have unknown api_key ${expects}`],
        [{ apiKey: "  " }, `credentials lack apiKey ${expects}`],
        [{ apiKey: null }, `credentials lack apiKey ${expects}`],
        [{ apiKey: 123456789, onBehalfOf: 4001 }, `credentials have non-string apiKey, onBehalfOf ${expects}`],
        [{ password: "p-secret", username: "u" }, `credentials lack apiKey; have unknown password, username ${expects}`]
      ]
      for (const [credentials, message] of cases) {
        const refused = expectErrorBody(yield* post(accountBody({ credentials })), 400)
        expect(refused.message).toBe(message)
        expect(JSON.stringify(refused)).not.toMatch(/secret|123456789/)
      }
      const bamboo = expectErrorBody(yield* post(accountBody({ connector_key: "bamboohr", credentials: { apiKey: "k" } })), 400)
      expect(bamboo.message).toBe(
        `credentials lack subdomain (authentication "apiKey" of bamboohr@1.5.0 expects: subdomain (required), apiKey (required))`
      )
      expect(yield* countAccounts(projectId)).toBe(0)
      const linked = yield* post(accountBody({ credentials: { apiKey: "gh-key", onBehalfOf: "4001" } }))
      expect(linked.status).toBe(201)
    }))

  it.effect("the fields are those GET /v2/connectors/{id} lists for the method", () =>
    Effect.gen(function*() {
      const { client } = yield* setup
      const connector = yield* client.connectors.get_connector({ path: { id: "greenhouse" }, urlParams: {} })
      const method = connector.authentication_methods.find((candidate) => candidate.key === "apiKey")
      expect(method?.config_fields.map((field) => [field.key, field.required])).toEqual([["apiKey", true], ["onBehalfOf", false]])
    }))

  it.effect("several methods: auth_method names one, else the first the credentials fit is stored for the calls", () =>
    Effect.gen(function*() {
      const { idOf, post, projectId, register, storedMethod } = yield* setup
      yield* register(withAuthentication("two_ways", twoMethods))
      const basic = yield* post(accountBody({ connector_key: "two_ways", credentials: { username: "u", password: "p" } }))
      expect(basic.status).toBe(201)
      expect(yield* storedMethod(idOf(basic))).toBe("basic")
      const named = yield* post(accountBody({ connector_key: "two_ways", auth_method: "token", credentials: { token: "t" } }))
      expect(named.status).toBe(201)
      expect(yield* storedMethod(idOf(named))).toBe("token")
      const before = yield* countAccounts(projectId)

      const neither = expectErrorBody(yield* post(accountBody({ connector_key: "two_ways", credentials: { username: "u" } })), 400)
      expect(neither.message).toBe(
        `credentials fit no authentication method of two_ways@1.0.0 (name one with auth_method): ` +
          `"token": lack token and have unknown username (expects: token (required)); ` +
          `"basic": lack password (expects: username (required), password (required), realm)`
      )
      const wrongMethod = expectErrorBody(
        yield* post(accountBody({ connector_key: "two_ways", auth_method: "token", credentials: { username: "u", password: "p" } })),
        400
      )
      expect(wrongMethod.message).toBe(
        `credentials lack token; have unknown username, password (authentication "token" of two_ways@1.0.0 expects: token (required))`
      )
      const unknownMethod = expectErrorBody(
        yield* post(accountBody({ connector_key: "two_ways", auth_method: "oauth", credentials: { token: "t" } })),
        400
      )
      expect(unknownMethod.message).toBe(`auth_method oauth is not an authentication method of two_ways@1.0.0 (methods: "token", "basic")`)
      expect(yield* countAccounts(projectId)).toBe(before)
    }))

  it.effect("a single method is not stored: the account follows its connector's first method", () =>
    Effect.gen(function*() {
      const { idOf, post, storedMethod } = yield* setup
      const linked = yield* post(accountBody())
      expect(linked.status).toBe(201)
      expect(yield* storedMethod(idOf(linked))).toBeNull()
    }))

  it.effect("OAuth2: authorization-code credentials are the tokens, client-credentials ones the OAuth app", () =>
    Effect.gen(function*() {
      const { post, register } = yield* setup
      const lever = expectErrorBody(yield* post(accountBody({ connector_key: "lever", credentials: { code: "c" } })), 400)
      expect(lever.message).toBe(
        `credentials lack accessToken; have unknown code (authentication "oauth2" of lever@1.1.0 expects: performAs, ` +
          `accessToken (required), refreshToken, expiresAt, issuedAt, tokenType, scope)`
      )
      const tokens = { accessToken: "at", refreshToken: "rt", expiresAt: "2030-01-01T00:00:00.000Z", performAs: "user-1" }
      expect((yield* post(accountBody({ connector_key: "lever", credentials: tokens }))).status).toBe(201)

      yield* register(withAuthentication("machine", clientCredentials))
      const lacking = expectErrorBody(yield* post(accountBody({ connector_key: "machine", credentials: { clientId: "id" } })), 400)
      expect(lacking.message).toBe(
        `credentials lack clientSecret or client_secret ` +
          `(authentication "machine" of machine@1.0.0 expects: clientId or client_id (required), clientSecret or client_secret (required))`
      )
      const snake = yield* post(accountBody({ connector_key: "machine", credentials: { client_id: "id", client_secret: "s" } }))
      expect(snake.status).toBe(201)
    }))

  it.effect("a connector without authentication methods takes empty credentials only", () =>
    Effect.gen(function*() {
      const { post, register } = yield* setup
      yield* register(withAuthentication("open_data", ""))
      const refused = expectErrorBody(yield* post(accountBody({ connector_key: "open_data", credentials: { token: "t" } })), 400)
      expect(refused.message).toBe(
        `credentials have unknown token (open_data@1.0.0 has no authentication methods: send credentials {})`
      )
      expect((yield* post(accountBody({ connector_key: "open_data", credentials: {} }))).status).toBe(201)
    }))
})
