import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Sandbox, startSandbox } from "@switchyard/sandbox"
import { Effect, Either } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import {
  exchangeAuthorizationCode,
  type OAuth2Client,
  OAuth2Error,
  type OAuth2Method,
  oauth2Method,
  type ParsedConnector,
  type ProviderTransport,
  refreshTokens,
  runAction,
  startAuthorization,
  type TokenSet
} from "../src/index.js"
import { connector, dedent } from "./support/fakeTransport.js"
import { fetchTransport } from "./support/fetchTransport.js"

/* The OAuth 2.0 client against the sandbox's provider (Lever look-alike), over real sockets. */

const REDIRECT = "http://127.0.0.1:9/connect/oauth2/lever/callback"
const SCOPE = "opportunities:read:admin postings:read:admin offline_access"

const lever = connector(dedent`
  StackOne: 1.0.0
  info:
    title: Lever (sandbox)
    key: lever_sandbox
    version: 1.0.0
  baseUrl: \${settings.oauthUrl}/v1
  authentication:
    - oauth:
        type: oauth2
        label: Lever OAuth
        grantType: authorization_code
        authorizationUrl: \${settings.oauthUrl}/oauth/authorize
        tokenUrl: \${settings.oauthUrl}/oauth/token
        scopes: [opportunities:read:admin, postings:read:admin, offline_access]
        tokenExpiresIn: 7200
        authorizationParams:
          prompt: consent
          audience: $.settings.audience
          response_type: token
          state: not-ours
        setupFields:
          - key: clientId
            label: Client ID
            secret: false
          - key: clientSecret
            label: Client secret
            secret: true
        configFields:
          - key: region
            label: Region
        testActions:
          - list_opportunities
          - action: list_postings
            required: false
    - no_pkce:
        type: oauth2
        pkce: false
        authorization:
          type: oauth2
          authorizationUrl: \${settings.oauthUrl}/oauth/authorize
          tokenUrl: \${settings.oauthUrl}/oauth/token
          authorizationParams:
            scope: postings:read:admin
    - by_action:
        type: oauth2
        authorizationUrl: \${settings.oauthUrl}/oauth/authorize
        tokenUrl: \${settings.oauthUrl}/oauth/token
        scopes: opportunities:read:admin offline_access
        refreshAuthentication:
          action: refresh_with_action
    - inline_refresh:
        type: oauth2
        authorizationUrl: \${settings.oauthUrl}/oauth/authorize
        tokenUrl: \${settings.oauthUrl}/oauth/token
        refreshAuthentication:
          action:
            actionId: inline_refresh
            actionType: refresh_token
            label: Refresh (inline)
            steps:
              - stepId: noop
                stepFunction:
                  functionName: static_values
                  parameters:
                    values:
                      accessToken: never-used
    - machine:
        type: oauth2
        grantType: client_credentials
        tokenUrl: \${settings.oauthUrl}/oauth/token
    - static:
        type: custom
        authorization:
          type: bearer
          token: $.credentials.apiKey
    - no_token_url:
        type: oauth2
        authorizationUrl: https://auth.example.com/authorize
  actions:
    - actionId: list_opportunities
      actionType: list
      label: List opportunities
      steps:
        - stepId: fetch
          stepFunction:
            functionName: request
            parameters:
              url: /opportunities
              method: get
              args:
                - name: limit
                  value: 2
                  in: query
              response:
                dataKey: data
    - actionId: list_postings
      actionType: list
      label: List postings
      steps:
        - stepId: fetch
          stepFunction:
            functionName: request
            parameters:
              url: /postings
              method: get
              response:
                dataKey: data
    - actionId: refresh_with_action
      actionType: refresh_token
      label: Refresh token
      steps:
        - stepId: refresh
          stepFunction:
            functionName: request
            parameters:
              url: \${settings.oauthUrl}/oauth/token
              method: post
              bodyType: form
              args:
                - name: grant_type
                  value: refresh_token
                  in: body
                - name: refresh_token
                  value: $.credentials.refreshToken
                  in: body
                - name: client_id
                  value: $.credentials.clientId
                  in: body
                - name: client_secret
                  value: $.credentials.clientSecret
                  in: body
        - stepId: tokens
          stepFunction:
            functionName: map_fields
            version: "2"
            parameters:
              dataSource: $.steps.refresh.output.data
              fields:
                - targetFieldKey: accessToken
                  expression: $.access_token
                  type: string
                - targetFieldKey: refreshToken
                  expression: $.refresh_token
                  type: string
                - targetFieldKey: expiresIn
                  expression: $.expires_in
                  type: number
`)

let sb: Sandbox
let settings: Record<string, unknown>
let client: OAuth2Client

beforeAll(async () => {
  sb = await startSandbox({ seed: 7, oauth: { redirectUris: [REDIRECT], accessTokenTtlSeconds: 60 } })
  settings = { oauthUrl: sb.oauth.url, audience: `${sb.oauth.url}/v1/` }
  client = { clientId: sb.oauth.clientId, clientSecret: sb.oauth.clientSecret }
})
afterAll(async () => {
  await sb.close()
})

const methodOf = (name: string | undefined, parsed: ParsedConnector = lever, scope = { credentials: {}, settings }): OAuth2Method => {
  const method = oauth2Method(parsed, name, scope)
  if (Either.isLeft(method)) throw new Error(`no method: ${method.left.message}`)
  return method.right
}

/** Runs an effect needing the provider transport over real sockets. */
const overSockets = <A, E>(effect: Effect.Effect<A, E, ProviderTransport>) => {
  const transport = fetchTransport()
  return Effect.map(Effect.provide(effect, transport.layer), (value) => ({ value, requests: transport.requests }))
}

/** Consent given (or refused) in the sandbox for an authorization we start. */
const authorize = (method: OAuth2Method, button: "Allow" | "Deny" = "Allow", state = `state-${Math.random().toString(36).slice(2)}`) =>
  Effect.gen(function*() {
    const started = yield* startAuthorization(method, { clientId: client.clientId, redirectUri: REDIRECT, state })
    const callbackUrl = yield* Effect.promise(() => sb.oauth.consent(started.url, button))
    return { started, callbackUrl, state }
  })

/** The whole code flow: consent, then the code exchanged for tokens. */
const link = (method: OAuth2Method = methodOf(undefined), app: OAuth2Client = client) =>
  Effect.gen(function*() {
    const { callbackUrl, started, state } = yield* authorize(method)
    const { value } = yield* overSockets(
      exchangeAuthorizationCode(method, app, { callbackUrl, expectedState: state, redirectUri: REDIRECT, codeVerifier: started.codeVerifier })
    )
    return value
  })

const listOpportunities = (tokens: TokenSet, extra: Partial<Parameters<typeof runAction>[3]> = {}) =>
  overSockets(runAction(lever, "list_opportunities", {}, { credentials: { accessToken: tokens.accessToken }, settings, ...extra }))

const failure = <A>(effect: Effect.Effect<A, OAuth2Error, ProviderTransport>) =>
  Effect.flip(Effect.map(overSockets(effect), ({ value }) => value))

describe("oauth2Method", () => {
  it("resolves the method's URLs and parameters from the settings", () => {
    const method = methodOf(undefined)
    expect(method).toEqual({
      name: "oauth",
      label: "Lever OAuth",
      authorizationUrl: `${sb.oauth.url}/oauth/authorize`,
      tokenUrl: `${sb.oauth.url}/oauth/token`,
      // response_type and state are always ours: dropped
      authorizationParams: { prompt: "consent", audience: `${sb.oauth.url}/v1/` },
      scope: SCOPE,
      pkce: true,
      defaultExpiresIn: 7200,
      refreshAction: undefined,
      configFields: [{ key: "region", label: "Region" }],
      setupFields: [{ key: "clientId", label: "Client ID", secret: false }, { key: "clientSecret", label: "Client secret", secret: true }],
      testActions: ["list_opportunities", "list_postings"]
    })
  })

  it("reads the endpoints under authorization, a scope parameter, pkce: false, refresh actions by id and inline", () => {
    const plain = methodOf("no_pkce")
    expect(plain).toMatchObject({
      authorizationUrl: `${sb.oauth.url}/oauth/authorize`,
      tokenUrl: `${sb.oauth.url}/oauth/token`,
      authorizationParams: {},
      scope: "postings:read:admin",
      pkce: false
    })
    expect(methodOf("by_action")).toMatchObject({ refreshAction: "refresh_with_action", scope: "opportunities:read:admin offline_access" })
    expect(methodOf("inline_refresh")).toMatchObject({ refreshAction: "inline_refresh", scope: undefined })
  })

  it("refuses what is no authorization-code method, and says what settings are missing", () => {
    const left = (name: string | undefined, scope = { credentials: {}, settings }) => {
      const method = oauth2Method(lever, name, scope)
      if (Either.isRight(method)) throw new Error("expected a failure")
      return method.left
    }
    expect(left("machine")).toMatchObject({ _tag: "ActionDefinitionError", message: expect.stringContaining("client_credentials") })
    expect(left("static")).toMatchObject({ _tag: "ActionDefinitionError", message: expect.stringContaining("not an OAuth 2.0 method") })
    expect(left("no_token_url")).toMatchObject({ _tag: "ActionDefinitionError", message: expect.stringContaining("tokenUrl") })
    expect(left("nope")).toMatchObject({ _tag: "ActionDefinitionError", message: expect.stringContaining('"nope"') })
    expect(left(undefined, { credentials: {}, settings: {} })).toMatchObject({ _tag: "ActionInputError" })
    expect(left(undefined, { credentials: {}, settings: { oauthUrl: "ftp://files.example" } })).toMatchObject({
      _tag: "ActionInputError",
      message: expect.stringContaining("http(s)")
    })
  })
})

describe("startAuthorization", () => {
  it.effect("builds the authorization URL with our parameters and an S256 challenge", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const { codeVerifier, url } = yield* startAuthorization(method, { clientId: "client-1", redirectUri: REDIRECT, state: "st-1" })
      const query = new URL(url).searchParams
      expect(url.startsWith(`${sb.oauth.url}/oauth/authorize?`)).toBe(true)
      expect(Object.fromEntries(query)).toEqual({
        prompt: "consent",
        audience: `${sb.oauth.url}/v1/`,
        response_type: "code",
        client_id: "client-1",
        redirect_uri: REDIRECT,
        state: "st-1",
        scope: SCOPE,
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: "S256"
      })
      expect(codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/)
      const { createHash } = yield* Effect.promise(() => import("node:crypto"))
      expect(query.get("code_challenge")).toBe(createHash("sha256").update(codeVerifier!).digest("base64url"))
      // a new verifier each time
      const again = yield* startAuthorization(method, { clientId: "client-1", redirectUri: REDIRECT, state: "st-1" })
      expect(again.codeVerifier).not.toBe(codeVerifier)
    }))

  it.effect("sends no challenge when the method opts out of PKCE", () =>
    Effect.gen(function*() {
      const { codeVerifier, url } = yield* startAuthorization(methodOf("no_pkce"), { clientId: "client-1", redirectUri: REDIRECT, state: "st-2" })
      const query = new URL(url).searchParams
      expect(codeVerifier).toBeUndefined()
      expect(query.has("code_challenge")).toBe(false)
      expect(query.has("code_challenge_method")).toBe(false)
      expect(query.get("scope")).toBe("postings:read:admin")
    }))
})

describe("exchangeAuthorizationCode against the sandbox", () => {
  it.live("consent, then the code gives access and refresh tokens the provider's API accepts", () =>
    Effect.gen(function*() {
      const before = sb.oauth.tokenRequests().authorization_code ?? 0
      const { callbackUrl, started, state } = yield* authorize(methodOf(undefined))
      expect(callbackUrl.searchParams.get("state")).toBe(state)
      const { requests, value: tokens } = yield* overSockets(
        exchangeAuthorizationCode(methodOf(undefined), client, { callbackUrl, expectedState: state, redirectUri: REDIRECT, codeVerifier: started.codeVerifier })
      )
      expect(tokens).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        expiresIn: 60,
        scope: SCOPE,
        tokenType: "bearer"
      })
      expect(sb.oauth.tokenRequests().authorization_code).toBe(before + 1)
      // one token request over the transport, its secrets declared
      expect(requests).toHaveLength(1)
      const [request] = requests
      expect(request!.url).toBe(sb.oauth.tokenUrl)
      expect(request!.body).toEqual({
        _tag: "Form",
        value: {
          grant_type: "authorization_code",
          code: callbackUrl.searchParams.get("code"),
          redirect_uri: REDIRECT,
          code_verifier: started.codeVerifier,
          client_id: sb.oauth.clientId,
          client_secret: sb.oauth.clientSecret
        }
      })
      expect(request!.secrets).toEqual(expect.arrayContaining([sb.oauth.clientSecret, callbackUrl.searchParams.get("code"), started.codeVerifier]))

      const { value: listed } = yield* listOpportunities(tokens)
      expect(listed.data).toHaveLength(2)
    }))

  it.live("client_secret_basic: the secret goes in the Authorization header, declared as a secret", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const { callbackUrl, started, state } = yield* authorize(method)
      const { requests, value } = yield* overSockets(exchangeAuthorizationCode(method, { ...client, tokenEndpointAuth: "client_secret_basic" }, {
        callbackUrl,
        expectedState: state,
        redirectUri: REDIRECT,
        codeVerifier: started.codeVerifier
      }))
      expect(value.accessToken).toBeTruthy()
      // RFC 6749 §2.3.1: id and secret form-urlencoded, then base64
      const basic = /^Basic (\S+)$/.exec(requests[0]!.headers.authorization ?? "")?.[1] ?? ""
      const [id, secret] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent)
      expect([id, secret]).toEqual([sb.oauth.clientId, sb.oauth.clientSecret])
      expect(requests[0]!.secrets).toContain(basic)
      expect(JSON.stringify(requests[0]!.body)).not.toContain(sb.oauth.clientSecret)
    }))

  it.live("a callback with another state is state_mismatch, and nothing is sent", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const { callbackUrl, started } = yield* authorize(method)
      const transport = fetchTransport()
      const error = yield* Effect.flip(Effect.provide(
        exchangeAuthorizationCode(method, client, { callbackUrl, expectedState: "the-one-we-sent", redirectUri: REDIRECT, codeVerifier: started.codeVerifier }),
        transport.layer
      ))
      expect(error).toBeInstanceOf(OAuth2Error)
      expect(error).toMatchObject({ _tag: "OAuth2Error", kind: "state_mismatch" })
      expect(transport.requests).toHaveLength(0)
      const noState = new URL(callbackUrl)
      noState.searchParams.delete("state")
      expect(yield* failure(exchangeAuthorizationCode(method, client, { callbackUrl: noState, expectedState: "s", redirectUri: REDIRECT, codeVerifier: undefined })))
        .toMatchObject({ kind: "state_mismatch" })
    }))

  it.live("Deny is a provider_error with the provider's access_denied and description", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const { callbackUrl, started, state } = yield* authorize(method, "Deny")
      expect(callbackUrl.searchParams.get("error")).toBe("access_denied")
      const error = yield* failure(exchangeAuthorizationCode(method, client, { callbackUrl, expectedState: state, redirectUri: REDIRECT, codeVerifier: started.codeVerifier }))
      expect(error).toMatchObject({ kind: "provider_error", error: "access_denied", description: "The user denied access" })
      expect(error.message).toContain("access_denied")
    }))

  it.live("a missing or wrong code verifier: the sandbox refuses the code, invalid_grant", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const { callbackUrl, started, state } = yield* authorize(method)
      const exchange = (codeVerifier: string | undefined) =>
        failure(exchangeAuthorizationCode(method, client, { callbackUrl, expectedState: state, redirectUri: REDIRECT, codeVerifier }))
      const missing = yield* exchange(undefined)
      expect(missing).toMatchObject({ kind: "invalid_grant", error: "invalid_grant", status: 400 })
      const wrong = yield* exchange("x".repeat(43))
      expect(wrong).toMatchObject({ kind: "invalid_grant", error: "invalid_grant", status: 400 })
      expect(wrong.description).toContain("code_verifier")
      for (const error of [missing, wrong]) {
        const text = `${error.message} ${error.description ?? ""}`
        for (const secret of [sb.oauth.clientSecret, callbackUrl.searchParams.get("code")!, started.codeVerifier!, "x".repeat(43)]) {
          expect(text).not.toContain(secret)
        }
      }
    }))

  it.live("bad client credentials are a provider_error (invalid_client, 401), without the secret", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const { callbackUrl, started, state } = yield* authorize(method)
      const wrongSecret = "not-the-client-secret-123"
      const error = yield* failure(exchangeAuthorizationCode(method, { ...client, clientSecret: wrongSecret, tokenEndpointAuth: "client_secret_basic" }, {
        callbackUrl,
        expectedState: state,
        redirectUri: REDIRECT,
        codeVerifier: started.codeVerifier
      }))
      expect(error).toMatchObject({ kind: "provider_error", error: "invalid_client", status: 401 })
      expect(JSON.stringify(error)).not.toContain(wrongSecret)
    }))
})

describe("refreshTokens against the sandbox", () => {
  it.live("the refresh_token grant rotates the tokens; the old refresh token is then refused", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const first = yield* link(method)
      const { requests, value: second } = yield* overSockets(refreshTokens(lever, method, client, { credentials: {}, settings, refreshToken: first.refreshToken! }))
      expect(second.accessToken).not.toBe(first.accessToken)
      expect(second.refreshToken).toBeDefined()
      expect(second.refreshToken).not.toBe(first.refreshToken)
      expect(second.expiresIn).toBe(60)
      expect(requests[0]!.body).toMatchObject({ _tag: "Form", value: { grant_type: "refresh_token", refresh_token: first.refreshToken } })
      expect(requests[0]!.secrets).toEqual(expect.arrayContaining([first.refreshToken, sb.oauth.clientSecret]))
      expect((yield* listOpportunities(second)).value.data).toHaveLength(2)
    }))

  it.live("after the grant is revoked, refresh is invalid_grant", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const tokens = yield* link(method)
      expect(sb.oauth.revoke({ refreshToken: tokens.refreshToken! })).toBe(1)
      const error = yield* failure(refreshTokens(lever, method, client, { credentials: {}, settings, refreshToken: tokens.refreshToken! }))
      expect(error).toMatchObject({ _tag: "OAuth2Error", kind: "invalid_grant", error: "invalid_grant", status: 400 })
      expect(error.message).not.toContain(tokens.refreshToken!)
    }))

  it.live("the refreshAuthentication action (request + map_fields) refreshes, and meets invalid_grant after revoke", () =>
    Effect.gen(function*() {
      const method = methodOf("by_action")
      const first = yield* link(method)
      sb.oauth.clearTokenRequests()
      const { requests, value: second } = yield* overSockets(
        refreshTokens(lever, method, client, { credentials: { region: "eu" }, settings, refreshToken: first.refreshToken! })
      )
      expect(sb.oauth.tokenRequests()).toEqual({ refresh_token: 1 })
      expect(second).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        expiresIn: 60,
        scope: undefined,
        tokenType: undefined
      })
      expect(second.refreshToken).not.toBe(first.refreshToken)
      // the action's own request: no Bearer token of the method, the client authenticates in the form
      expect(requests).toHaveLength(1)
      expect(requests[0]!.headers.authorization).toBeUndefined()
      expect(requests[0]!.body).toEqual({
        _tag: "Form",
        value: { grant_type: "refresh_token", refresh_token: first.refreshToken, client_id: sb.oauth.clientId, client_secret: sb.oauth.clientSecret }
      })
      expect((yield* listOpportunities(second)).value.data).toHaveLength(2)

      sb.oauth.revoke({ refreshToken: second.refreshToken! })
      const error = yield* failure(refreshTokens(lever, method, client, { credentials: {}, settings, refreshToken: second.refreshToken! }))
      expect(error).toMatchObject({ kind: "invalid_grant", error: "invalid_grant", status: 400 })
      expect(JSON.stringify(error)).not.toContain(second.refreshToken!)
      expect(JSON.stringify(error)).not.toContain(sb.oauth.clientSecret)
    }))

  it.live("an expired access token: the run's 401 hook refreshes through refreshTokens and the request goes through", () =>
    Effect.gen(function*() {
      const method = methodOf(undefined)
      const tokens = yield* link(method)
      sb.clock.advance(61_000)
      let stored = tokens
      const refreshAccessToken = (rejected: string) =>
        Effect.gen(function*() {
          expect(rejected).toBe(stored.accessToken)
          const renewed = yield* refreshTokens(lever, method, client, { credentials: {}, settings, refreshToken: stored.refreshToken! }).pipe(
            Effect.orDieWith((error) => new Error(error.message))
          )
          stored = { ...renewed, refreshToken: renewed.refreshToken ?? stored.refreshToken }
          return renewed.accessToken
        })
      const transport = fetchTransport()
      const output = yield* runAction(lever, "list_opportunities", {}, {
        credentials: { accessToken: tokens.accessToken },
        settings,
        refreshAccessToken: (rejected) => Effect.provide(refreshAccessToken(rejected), transport.layer)
      }).pipe(Effect.provide(transport.layer))
      expect(output.data).toHaveLength(2)
      expect(transport.requests.map((request) => new URL(request.url).pathname)).toEqual(["/v1/opportunities", "/oauth/token", "/v1/opportunities"])
      expect(transport.requests[2]!.headers.authorization).toBe(`Bearer ${stored.accessToken}`)
    }))
})

// ---- a token endpoint of our own ------------------------------------------------------

/** A tiny token endpoint: `answer` gets the form and writes the response. */
const tokenServer = async (answer: (form: URLSearchParams, res: ServerResponse, req: IncomingMessage) => void) => {
  const forms: Array<URLSearchParams> = []
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString()))
    req.on("end", () => {
      const form = new URLSearchParams(body)
      forms.push(form)
      answer(form, res, req)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const method: OAuth2Method = { ...methodOf("no_pkce"), name: "own", tokenUrl: `${url}/token`, defaultExpiresIn: 900 }
  return { url, method, forms, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

describe("refreshTokens and token answers, against a token endpoint of our own", () => {
  const REFRESH = "refresh-token-abcdef"

  it.live("an answer without refresh_token gives refreshToken undefined (keep the old one); tokenExpiresIn fills expires_in", () =>
    Effect.gen(function*() {
      const own = yield* Effect.promise(() => tokenServer((_, res) => sendJson(res, 200, { access_token: "fresh-access", token_type: "Bearer" })))
      try {
        const { value } = yield* overSockets(refreshTokens(lever, own.method, client, { credentials: {}, settings, refreshToken: REFRESH }))
        expect(value).toEqual({ accessToken: "fresh-access", refreshToken: undefined, expiresIn: 900, scope: undefined, tokenType: "bearer" })
        expect(Object.fromEntries(own.forms[0]!)).toEqual({
          grant_type: "refresh_token",
          refresh_token: REFRESH,
          client_id: sb.oauth.clientId,
          client_secret: sb.oauth.clientSecret
        })
      } finally {
        yield* Effect.promise(own.close)
      }
    }))

  it.live("secrets the provider echoes never reach an OAuth2Error", () =>
    Effect.gen(function*() {
      // a careless provider quoting what it got
      const own = yield* Effect.promise(() =>
        tokenServer((form, res) =>
          sendJson(res, 400, {
            error: "invalid_request",
            error_description: `bad request: refresh_token=${form.get("refresh_token")} client_secret=${form.get("client_secret")}`
          })
        )
      )
      try {
        const error = yield* failure(refreshTokens(lever, own.method, client, { credentials: {}, settings, refreshToken: REFRESH }))
        expect(error).toMatchObject({ kind: "provider_error", error: "invalid_request", status: 400 })
        expect(error.description).toContain("[REDACTED]")
        const text = JSON.stringify({ ...error, message: error.message })
        expect(text).not.toContain(REFRESH)
        expect(text).not.toContain(sb.oauth.clientSecret)
      } finally {
        yield* Effect.promise(own.close)
      }
    }))

  it.live("malformed answers are invalid_response; HTML errors are provider_error with the status", () =>
    Effect.gen(function*() {
      const own = yield* Effect.promise(() =>
        tokenServer((form, res) => {
          if (form.get("refresh_token") === "no-access-token") return sendJson(res, 200, { token_type: "bearer" })
          if (form.get("refresh_token") === "not-json") {
            res.writeHead(200, { "content-type": "text/plain" })
            return res.end("access_token=abc")
          }
          res.writeHead(503, { "content-type": "text/html" })
          res.end("<h1>down for maintenance</h1>")
        })
      )
      try {
        const refresh = (refreshToken: string) => failure(refreshTokens(lever, own.method, client, { credentials: {}, settings, refreshToken }))
        expect(yield* refresh("no-access-token")).toMatchObject({ kind: "invalid_response", message: expect.stringContaining("access_token") })
        expect(yield* refresh("not-json")).toMatchObject({ kind: "invalid_response" })
        expect(yield* refresh("maintenance")).toMatchObject({ kind: "provider_error", status: 503 })
      } finally {
        yield* Effect.promise(own.close)
      }
    }))

  it.live("the code exchange redacts the code, verifier and client secret from what the provider echoes", () =>
    Effect.gen(function*() {
      const own = yield* Effect.promise(() =>
        tokenServer((form, res) =>
          sendJson(res, 400, {
            error: "invalid_grant",
            error_description: `no such code ${form.get("code")} for verifier ${form.get("code_verifier")} (secret ${form.get("client_secret")})`
          })
        )
      )
      try {
        const code = "the-code-0123456789"
        const codeVerifier = "v".repeat(50)
        const callbackUrl = new URL(`${REDIRECT}?code=${code}&state=s-1`)
        const error = yield* failure(exchangeAuthorizationCode(own.method, client, { callbackUrl, expectedState: "s-1", redirectUri: REDIRECT, codeVerifier }))
        expect(error).toMatchObject({ kind: "invalid_grant", status: 400 })
        expect(Object.fromEntries(own.forms[0]!)).toMatchObject({ code, code_verifier: codeVerifier, grant_type: "authorization_code" })
        const text = JSON.stringify({ ...error, message: error.message })
        for (const secret of [code, codeVerifier, sb.oauth.clientSecret]) expect(text).not.toContain(secret)
      } finally {
        yield* Effect.promise(own.close)
      }
    }))

  it.live("a callback's iss (RFC 9207) must name one of the method's servers", () =>
    Effect.gen(function*() {
      const own = yield* Effect.promise(() =>
        tokenServer((_, res) => sendJson(res, 200, { access_token: "from-code", token_type: "bearer", expires_in: 30, refresh_token: "r-1234" }))
      )
      try {
        const exchange = (iss: string) =>
          overSockets(exchangeAuthorizationCode(own.method, client, {
            callbackUrl: new URL(`${REDIRECT}?code=c-1234&state=s-2&iss=${encodeURIComponent(iss)}`),
            expectedState: "s-2",
            redirectUri: REDIRECT,
            codeVerifier: undefined
          }))
        const { value } = yield* exchange(own.url)
        expect(value).toMatchObject({ accessToken: "from-code", refreshToken: "r-1234", expiresIn: 30 })
        const error = yield* Effect.flip(exchange("https://other-server.example"))
        expect(error).toMatchObject({ kind: "invalid_response", message: expect.stringContaining("iss") })
        expect(own.forms).toHaveLength(1)
      } finally {
        yield* Effect.promise(own.close)
      }
    }))

  it.live("a token endpoint nobody answers at is unreachable", () =>
    Effect.gen(function*() {
      const own = yield* Effect.promise(() => tokenServer((_, res) => sendJson(res, 200, {})))
      yield* Effect.promise(own.close)
      const error = yield* failure(refreshTokens(lever, own.method, client, { credentials: {}, settings, refreshToken: REFRESH }))
      expect(error).toMatchObject({ kind: "unreachable" })
      expect(error.message).not.toContain(REFRESH)
    }))
})
