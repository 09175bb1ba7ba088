import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { DASHBOARD_SESSION_COOKIE, Unauthorized } from "@switchyard/api"
import { Duration, Redacted } from "effect"
import { servedOverHttps } from "./sameOrigin.js"

/*
 * The web dashboard's session cookie: the only place its name and attributes are written.
 * HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it), Path=/
 * (the dashboard calls the API beside it), Secure whenever the client came over HTTPS.
 */

/** The session token the request carries, if any (an empty cookie counts as none). */
export const sessionTokenOf = (request: HttpServerRequest.HttpServerRequest): Redacted.Redacted | undefined => {
  const value = request.cookies[DASHBOARD_SESSION_COOKIE]
  return value === undefined || value === "" ? undefined : Redacted.make(value)
}

/** The refusal of a cookie whose session is unknown, signed out, expired, or whose key was revoked. */
export const sessionEnded = () =>
  new Unauthorized({ message: "The dashboard session has ended or expired: sign in again with an API key" })

/**
 * Whether the request is to be authenticated by its session cookie: it has one and no
 * `Authorization` header (a header, when present, wins and the cookie is ignored).
 */
export const usesSessionCookie = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers.authorization === undefined && sessionTokenOf(request) !== undefined

const attributes = (request: HttpServerRequest.HttpServerRequest, publicUrl: string) => ({
  path: "/",
  httpOnly: true,
  sameSite: "strict" as const,
  secure: servedOverHttps(request, publicUrl)
})

/** Sets the cookie to `token` for the session's lifetime. */
export const setSessionCookie = (
  response: HttpServerResponse.HttpServerResponse,
  request: HttpServerRequest.HttpServerRequest,
  publicUrl: string,
  token: Redacted.Redacted,
  lifetime: Duration.Duration
) =>
  HttpServerResponse.unsafeSetCookie(response, DASHBOARD_SESSION_COOKIE, Redacted.value(token), {
    ...attributes(request, publicUrl),
    maxAge: lifetime
  })

/** Tells the browser to drop the cookie (`Max-Age=0`). */
export const clearSessionCookie = (
  response: HttpServerResponse.HttpServerResponse,
  request: HttpServerRequest.HttpServerRequest,
  publicUrl: string
) => HttpServerResponse.expireCookie(response, DASHBOARD_SESSION_COOKIE, attributes(request, publicUrl))
