import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import type { IncomingCall } from "../requestLogs/RequestLog.js"

/** Longest incoming path or URL the request log keeps. */
const MAX_LOGGED_URL_LENGTH = 2048

/** The HTTP request that carried the run, as the request log shows it (none outside a request). */
export const incomingCall = (publicUrl: string): Effect.Effect<IncomingCall | null> =>
  Effect.map(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) => {
    if (Option.isNone(request)) return null
    const target = new URL(request.value.url, "http://switchyard")
    return {
      method: request.value.method,
      path: target.pathname.slice(0, MAX_LOGGED_URL_LENGTH),
      url: `${publicUrl}${target.pathname}${target.search}`.slice(0, MAX_LOGGED_URL_LENGTH)
    }
  })
