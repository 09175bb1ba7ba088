import type { HttpServerRequest } from "@effect/platform"

/*
 * Cross-site request forgery is what a cookie invites: a browser sends it with requests another
 * site makes it send. A state-changing request authenticated by the dashboard's cookie (and its
 * sign-in and sign-out) must therefore come from a page of this server, which browsers vouch for
 * with `Origin`. SameSite=Strict already keeps the cookie off cross-site requests; this is the
 * second lock, for browsers and sub-domains where that one gives way.
 */

const MAX_ECHO = 100

/** The scheme the client used, when a proxy in front says so (`x-forwarded-proto`), lower case. */
const forwardedProto = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const value = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim().toLowerCase()
  return value === "http" || value === "https" ? value : undefined
}

/** Whether the client reached this server over HTTPS: its public URL is https, or a proxy says so. */
export const servedOverHttps = (request: HttpServerRequest.HttpServerRequest, publicUrl: string) =>
  publicUrl.startsWith("https:") || forwardedProto(request) === "https"

const originOf = (text: string): URL | undefined => {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined
  } catch {
    return undefined
  }
}

/** `host[:port]` as a URL of `scheme` normalizes it (case, default port), or undefined. */
const normalHost = (scheme: string, host: string) => originOf(`${scheme}//${host}`)?.host

const refusal = (reason: string) => `Cross-origin request refused: ${reason}`

/**
 * Why the request's `Origin` is not this server's, or undefined when it is: the origin of
 * `SWITCHYARD_PUBLIC_URL`, or the request's own `Host` (with the scheme a proxy reports, when
 * one does). `what` names the request in the refusal of one without Origin.
 */
export const crossOriginRefusal = (
  request: HttpServerRequest.HttpServerRequest,
  publicUrl: string,
  what = "a request authenticated by the dashboard session"
): string | undefined => {
  const header = request.headers.origin
  if (header === undefined || header === "") return refusal(`${what} must send Origin`)
  const origin = originOf(header)
  if (origin !== undefined && origin.origin === new URL(publicUrl).origin) return undefined
  const host = request.headers.host
  const scheme = forwardedProto(request)
  if (
    origin !== undefined && host !== undefined && origin.host === normalHost(origin.protocol, host) &&
    (scheme === undefined || origin.protocol === `${scheme}:`)
  ) return undefined
  const echoed = header.length > MAX_ECHO ? `${header.slice(0, MAX_ECHO)}…` : header
  return refusal(`Origin ${JSON.stringify(echoed)} is not this server's (neither ${new URL(publicUrl).origin} nor the request's Host)`)
}
