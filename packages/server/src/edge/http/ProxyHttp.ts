import { HttpApiBuilder } from "@effect/platform"
import { Api, type ApiError, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { ActionRunner } from "../../features/actions/ActionRunner.js"
import { markAnswered } from "../ErrorResponses.js"
import { toApiError } from "../toApiError.js"
import { jsonAnswer } from "../wire/jsonAnswer.js"
import { encodedAnswer, ownAnswerMisfit, wantsHeartbeat, withHeartbeat } from "./UnifiedResponses.js"

/** `POST /unified/proxy`: one provider request through the account's runner; `Prefer: heartbeat` as other unified calls. */
export const ProxyHttpLive = HttpApiBuilder.group(Api, "unified_proxy", (handlers) =>
  Effect.gen(function*() {
    const runner = yield* ActionRunner
    const json = jsonAnswer(handlers.group.endpoints.proxy_request)
    return handlers.handle("proxy_request", ({ headers, payload }) =>
      Effect.gen(function*() {
        const caller = yield* CurrentCaller
        const work: Effect.Effect<unknown, ApiError> = runner.proxy(caller.projectId, headers["x-account-id"], { ...payload, method: payload.method ?? "GET" }).pipe(
          Effect.mapError(toApiError)
        )
        const body = Effect.flatMap(work, (value) => encodedAnswer(json, value, ownAnswerMisfit))
        const answer = wantsHeartbeat(headers.prefer) ? yield* withHeartbeat(body) : json.respond(yield* body)
        yield* markAnswered
        // a finished response (encoded once by `json`, or the heartbeat stream): what the endpoint may answer
        return answer as never
      }))
  }))
