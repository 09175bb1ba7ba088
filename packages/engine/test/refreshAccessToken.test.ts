import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ActionInputError, type ParsedConnector, type RunContext, runAction } from "../src/index.js"
import { connector, dedent, type FakeHandler, fakeTransport, json } from "./support/fakeTransport.js"

/* `RunContext.refreshAccessToken`: a 401 on the account's stored OAuth2 token. */

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

const go = (parsed: ParsedConnector, actionId: string, handler: FakeHandler, context: Partial<RunContext>) => {
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
