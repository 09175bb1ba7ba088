import { describe, expect, it } from "@effect/vitest"
import { Data, Effect } from "effect"
import { ActionInputError, ForeignFailure, type ParsedConnector, type RunContext, runAction, TokenCache } from "../src/index.js"
import { connector, dedent, type FakeHandler, fakeTransport, json } from "./support/fakeTransport.js"

/* `RunContext.refreshAccessToken`: a 401 on the account's stored OAuth2 token; the caller's own failures of its hooks. */

const lever = connector(dedent`
  StackOne: 1.0.0
  info:
    title: Lever
    key: lever
    version: 1.0.0
  baseUrl: https://api.lever.example
  authentication:
    - oauth:
        type: oauth2
        authorizationUrl: https://auth.lever.example/authorize
        tokenUrl: https://auth.lever.example/oauth/token
    - static_bearer:
        type: custom
        authorization:
          type: bearer
          token: $.credentials.accessToken
    - machine:
        type: oauth2
        grantType: client_credentials
        tokenUrl: https://auth.lever.example/oauth/token
  actions:
    - actionId: get_user
      actionType: custom
      label: Get user
      steps:
        - stepId: me
          stepFunction:
            functionName: request
            parameters:
              url: /me
              method: get
    - actionId: two_calls
      actionType: custom
      label: Two calls
      steps:
        - stepId: me
          stepFunction:
            functionName: request
            parameters:
              url: /me
              method: get
        - stepId: postings
          stepFunction:
            functionName: request
            parameters:
              url: /postings
              method: get
      result:
        data: $.steps.postings.output.data
    - actionId: tolerant
      actionType: custom
      label: Tolerant
      steps:
        - stepId: me
          ignoreError: true
          stepFunction:
            functionName: request
            parameters:
              url: /me
              method: get
      result:
        data: $.steps.me
`)

const OLD = "old-access-token"
const NEW = "new-access-token"

/** A provider accepting only the tokens in `valid`. */
const accepting = (valid: ReadonlyArray<string>): FakeHandler => (request, url) =>
  valid.some((token) => request.headers.authorization === `Bearer ${token}`)
    ? json({ path: url.pathname })
    : json({ error: "invalid_token" }, 401, { "www-authenticate": 'Bearer error="invalid_token"' })

const counting = (answer: (rejected: string) => Effect.Effect<string, ActionInputError> = () => Effect.succeed(NEW)) => {
  const calls: Array<string> = []
  const hook = (rejected: string) => Effect.suspend(() => {
    calls.push(rejected)
    return answer(rejected)
  })
  return { calls, hook }
}

const go = <E = never>(parsed: ParsedConnector, actionId: string, handler: FakeHandler, context: Partial<RunContext<E>>) => {
  const transport = fakeTransport(handler)
  const effect = runAction(parsed, actionId, {}, { credentials: { accessToken: OLD }, ...context }).pipe(Effect.provide(transport.layer))
  return { effect, requests: transport.requests }
}

describe("runAction: refreshAccessToken on a 401", () => {
  it.effect("is called once with the rejected token; the request is sent again with the new one", () =>
    Effect.gen(function*() {
      const { calls, hook } = counting()
      const { effect, requests } = go(lever, "get_user", accepting([NEW]), { refreshAccessToken: hook })
      const output = yield* effect
      expect(output.data).toEqual({ path: "/me" })
      expect(calls).toEqual([OLD])
      expect(requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${OLD}`, `Bearer ${NEW}`])
      // the new token is one of the run's secrets from then on (transport redaction)
      expect(requests[1]!.secrets).toContain(NEW)
    }))

  it.effect("later requests of the run carry the new token without asking again", () =>
    Effect.gen(function*() {
      const { calls, hook } = counting()
      const { effect, requests } = go(lever, "two_calls", accepting([NEW]), { refreshAccessToken: hook })
      const output = yield* effect
      expect(output.data).toEqual({ path: "/postings" })
      expect(calls).toEqual([OLD])
      expect(requests.map((request) => [new URL(request.url).pathname, request.headers.authorization])).toEqual([
        ["/me", `Bearer ${OLD}`],
        ["/me", `Bearer ${NEW}`],
        ["/postings", `Bearer ${NEW}`]
      ])
    }))

  it.effect("a 401 on the new token is the provider's answer: no second call, no second resend", () =>
    Effect.gen(function*() {
      const { calls, hook } = counting()
      const { effect, requests } = go(lever, "get_user", accepting([]), { refreshAccessToken: hook })
      const error = yield* Effect.flip(effect)
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 401 })
      expect(calls).toEqual([OLD])
      expect(requests).toHaveLength(2)
    }))

  it.effect("at most once per run: a later 401 on the new token is not refreshed again", () =>
    Effect.gen(function*() {
      const { calls, hook } = counting()
      // /me accepts the new token, /postings refuses every token
      const handler: FakeHandler = (request, url) =>
        url.pathname === "/me" ? accepting([NEW])(request, url, 0) : json({ error: "invalid_token" }, 401)
      const { effect, requests } = go(lever, "two_calls", handler, { refreshAccessToken: hook })
      const error = yield* Effect.flip(effect)
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 401, stepId: "postings" })
      expect(calls).toEqual([OLD])
      expect(requests.map((request) => new URL(request.url).pathname)).toEqual(["/me", "/me", "/postings"])
    }))

  it.effect("without a hook a 401 is the provider's answer, sent once", () =>
    Effect.gen(function*() {
      const { effect, requests } = go(lever, "get_user", accepting([NEW]), {})
      const error = yield* Effect.flip(effect)
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 401 })
      expect(requests).toHaveLength(1)
    }))

  it.effect("the hook's failure is the run's failure", () =>
    Effect.gen(function*() {
      const refused = ActionInputError.fromIssues([{ input: "credentials.refreshToken", message: "was revoked; link the account again" }])
      const { calls, hook } = counting(() => Effect.fail(refused))
      const { effect, requests } = go(lever, "get_user", accepting([NEW]), { refreshAccessToken: hook })
      const error = yield* Effect.flip(effect)
      expect(error).toMatchObject({ _tag: "ActionInputError", message: refused.message })
      expect(calls).toEqual([OLD])
      expect(requests).toHaveLength(1)
    }))

  it.effect("only stored OAuth2 tokens: a custom bearer token's 401 does not call the hook", () =>
    Effect.gen(function*() {
      const { calls, hook } = counting()
      const { effect, requests } = go(lever, "get_user", accepting([NEW]), { refreshAccessToken: hook, authMethod: "static_bearer" })
      expect((yield* Effect.flip(effect))).toMatchObject({ _tag: "ProviderHttpError", status: 401 })
      expect(calls).toEqual([])
      expect(requests).toHaveLength(1)
    }))

  it.effect("withoutAuthentication: requests carry none of the method's authentication", () =>
    Effect.gen(function*() {
      const { effect, requests } = go(lever, "get_user", () => json({ ok: true }), { withoutAuthentication: true, credentials: {} })
      expect((yield* effect).data).toEqual({ ok: true })
      expect(requests[0]!.headers.authorization).toBeUndefined()
    }))
})

/** A failure of the caller's own domain, which the engine knows nothing of. */
class AccountGone extends Data.TaggedError("AccountGone")<{ readonly message: string }> {}

describe("runAction: the caller's own failures (ForeignFailure)", () => {
  it.effect("the refresh hook's ForeignFailure fails the run with what it carries, as it is", () =>
    Effect.gen(function*() {
      const gone = new AccountGone({ message: `account was deleted while ${OLD} was renewed` })
      const hook = (_rejected: string) => Effect.fail(new ForeignFailure(gone))
      const { effect, requests } = go(lever, "get_user", accepting([NEW]), { refreshAccessToken: hook })
      // neither rebuilt nor redacted: the caller knows what it holds
      expect(yield* Effect.flip(effect)).toBe(gone)
      expect(requests).toHaveLength(1)
    }))

  it.effect("even a step with ignoreError ends the run with it", () =>
    Effect.gen(function*() {
      const gone = new AccountGone({ message: "gone" })
      const { effect, requests } = go(lever, "tolerant", accepting([NEW]), {
        refreshAccessToken: () => Effect.fail(new ForeignFailure(gone))
      })
      expect(yield* Effect.flip(effect)).toBe(gone)
      expect(requests).toHaveLength(1)
    }))

  it.effect("beforeEachRequest runs before each request; its failure stops the run before the next one, as itself", () =>
    Effect.gen(function*() {
      const takenOver = new AccountGone({ message: "taken over" })
      let checks = 0
      const beforeEachRequest = Effect.suspend(() => ++checks > 1 ? Effect.fail(takenOver) : Effect.void)
      const { effect, requests } = go(lever, "two_calls", accepting([OLD]), { beforeEachRequest })
      expect(yield* Effect.flip(effect)).toBe(takenOver)
      expect(checks).toBe(2)
      expect(requests.map((request) => new URL(request.url).pathname)).toEqual(["/me"])
      // a step with ignoreError is stopped too: nothing is sent
      const tolerant = go(lever, "tolerant", accepting([OLD]), { beforeEachRequest: Effect.fail(takenOver) })
      expect(yield* Effect.flip(tolerant.effect)).toBe(takenOver)
      expect(tolerant.requests).toEqual([])
    }))

  it.effect("beforeEachRequest also runs before a client-credentials token is looked up", () =>
    Effect.gen(function*() {
      const takenOver = new AccountGone({ message: "taken over" })
      const { effect, requests } = go(lever, "get_user", accepting([OLD]), {
        authMethod: "machine",
        credentials: { clientId: "client-1", clientSecret: "secret-xyz" },
        tokenCache: new TokenCache(),
        beforeEachRequest: Effect.fail(takenOver)
      })
      expect(yield* Effect.flip(effect)).toBe(takenOver)
      expect(requests).toEqual([])
    }))

  it.effect("a run whose hooks pass sends as without them", () =>
    Effect.gen(function*() {
      let checks = 0
      const { effect, requests } = go(lever, "two_calls", accepting([OLD]), {
        beforeEachRequest: Effect.sync(() => void checks++)
      })
      expect((yield* effect).data).toEqual({ path: "/postings" })
      expect(checks).toBe(2)
      expect(requests).toHaveLength(2)
    }))
})
