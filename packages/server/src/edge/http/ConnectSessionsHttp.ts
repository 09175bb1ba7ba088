import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { toApiError } from "../toApiError.js"
import { ConnectLinking } from "../../features/connectSessions/ConnectLinking.js"
import { ConnectOAuth2 } from "../../features/connectSessions/ConnectOAuth2.js"
import { ConnectSessions } from "../../features/connectSessions/ConnectSessions.js"

export const ConnectSessionsHttpLive = HttpApiBuilder.group(Api, "connect_sessions", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* ConnectSessions
    const linking = yield* ConnectLinking
    const oauth = yield* ConnectOAuth2
    return handlers
      .handle("create_connect_session", ({ payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => sessions.create(caller, payload)).pipe(Effect.mapError(toApiError)))
      .handle("authenticate_connect_session", ({ payload }) =>
        sessions.authenticate(payload.token).pipe(Effect.mapError(toApiError)))
      .handle("link_connect_account", ({ payload }) => linking.link(payload).pipe(Effect.mapError(toApiError)))
      .handle("start_connect_oauth2", ({ payload }) => oauth.start(payload).pipe(Effect.mapError(toApiError)))
      .handle("get_connect_session", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => sessions.get(caller, path.id)).pipe(Effect.mapError(toApiError)))
  }))
