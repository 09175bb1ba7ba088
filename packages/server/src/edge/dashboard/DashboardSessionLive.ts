import { HttpApiBuilder, HttpApp, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { BadRequest, type Caller, Forbidden, PayloadTooLarge, Unauthorized, UnsupportedMediaType } from "@switchyard/api"
import { Effect, Layer, Option, Redacted } from "effect"
import { DashboardSessions } from "../../features/auth/DashboardSessions.js"
import { SwitchyardConfig } from "../../platform/Config.js"
import { clearSessionCookie, sessionEnded, sessionTokenOf, setSessionCookie } from "../DashboardCookie.js"
import { isJsonMediaType, mediaTypeOf } from "../RequestGuards.js"
import { crossOriginRefusal } from "../sameOrigin.js"
import { toApiError } from "../toApiError.js"

/*
 * The web dashboard's sign-in, beside the API (raw routes, like the connect page): the user
 * pastes an API key once and gets a session cookie instead, so the browser never keeps the key.
 *
 *   POST   /dashboard/session  {"api_key": "swy_..."}  → 200 the session, Set-Cookie
 *   GET    /dashboard/session                          → 200 the session behind the cookie, else 401
 *   DELETE /dashboard/session                          → 204, the session ended and the cookie cleared
 *
 * Refusals answer in the API's error body. Sign-in and sign-out must come from a page of this
 * server (`Origin`), so no other site can sign a browser in or out.
 */

export const DASHBOARD_SESSION_PATH = "/dashboard/session"
/** A sign-in body is one key in JSON: anything much larger is not one. */
const MAX_SIGN_IN_BYTES = 4096

/** The session as the dashboard reads it: whose it is and what it may do, never the token. */
const sessionView = (caller: Caller, expiresAt: Date) => ({
  project_id: caller.projectId,
  api_key_id: caller.apiKeyId,
  scope: caller.scope,
  expires_at: expiresAt.toISOString()
})

/** Every answer of these routes, refusals included, is about a credential: never cached. */
const noStore = HttpApp.appendPreResponseHandler((_, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "cache-control", "no-store"))
)

const malformed = () =>
  new BadRequest({ message: `The body must be a JSON object with the API key as a string: {"api_key": "swy_..."}` })

/** The key the sign-in body carries; the refusals never repeat what was sent. */
const signInKeyOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    if (!isJsonMediaType(mediaTypeOf(request))) {
      return yield* new UnsupportedMediaType({ message: `POST ${DASHBOARD_SESSION_PATH} reads a JSON body: send application/json` })
    }
    if (Number(request.headers["content-length"] ?? 0) > MAX_SIGN_IN_BYTES) {
      return yield* new PayloadTooLarge({ message: `A sign-in body is at most ${MAX_SIGN_IN_BYTES} bytes` })
    }
    const text = yield* request.text.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(MAX_SIGN_IN_BYTES)),
      Effect.mapError(() =>
        new BadRequest({ message: `The request body could not be read (a sign-in body is at most ${MAX_SIGN_IN_BYTES} bytes)` })
      )
    )
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return yield* new BadRequest({ message: "The request body is not valid JSON" })
    }
    const key = typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>).api_key
      : undefined
    if (typeof key !== "string" || key.length === 0) return yield* malformed()
    return Redacted.make(key)
  })

export const DashboardSessionLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const sessions = yield* DashboardSessions
    const { publicUrl } = yield* SwitchyardConfig

    const sameOriginOnly = (request: HttpServerRequest.HttpServerRequest) => {
      const refusal = crossOriginRefusal(request, publicUrl, "signing in to or out of the dashboard")
      return refusal === undefined ? Effect.void : Effect.fail(new Forbidden({ message: refusal }))
    }

    yield* router.post(
      DASHBOARD_SESSION_PATH,
      Effect.gen(function*() {
        yield* noStore
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* sameOriginOnly(request)
        const apiKey = yield* signInKeyOf(request)
        const session = yield* Effect.mapError(sessions.signIn(apiKey), toApiError)
        // signing in again replaces the session this browser held
        const previous = sessionTokenOf(request)
        if (previous !== undefined) yield* sessions.signOut(previous)
        const response = HttpServerResponse.unsafeJson(sessionView(session.caller, session.expiresAt))
        return setSessionCookie(response, request, publicUrl, session.token, session.lifetime)
      })
    )

    yield* router.get(
      DASHBOARD_SESSION_PATH,
      Effect.gen(function*() {
        yield* noStore
        const token = sessionTokenOf(yield* HttpServerRequest.HttpServerRequest)
        if (token === undefined) {
          return yield* new Unauthorized({ message: `No dashboard session: sign in with POST ${DASHBOARD_SESSION_PATH}` })
        }
        const session = yield* sessions.authenticate(token)
        if (Option.isNone(session)) return yield* sessionEnded()
        return HttpServerResponse.unsafeJson(sessionView(session.value.caller, session.value.expiresAt))
      })
    )

    yield* router.del(
      DASHBOARD_SESSION_PATH,
      Effect.gen(function*() {
        yield* noStore
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* sameOriginOnly(request)
        const token = sessionTokenOf(request)
        if (token !== undefined) yield* sessions.signOut(token)
        return clearSessionCookie(HttpServerResponse.empty({ status: 204 }), request, publicUrl)
      })
    )
  })
).pipe(Layer.provide(DashboardSessions.Default))
