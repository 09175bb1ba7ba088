import { Effect, Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import { ActionInputError, type RunFailure } from "../../RunErrors.js"
import type { BuiltRequest } from "../http/BuiltRequest.js"
import { buildRequest } from "../http/buildRequest.js"
import { checkResponse, readBody } from "../http/providerAnswers.js"
import { sendRequest } from "../http/sendRequest.js"
import type { RunState, StepOutput } from "../RunState.js"
import { paramText } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/**
 * `upload_file`: sends the file (bytes, or base64 / plain text per `encoding`) as the request
 * body with its media type and, when named, a `Content-Disposition` file name.
 */
export const uploadFile = (run: RunState, step: StepPlan, kind: StepKindOf<"upload_file">): Effect.Effect<StepOutput, RunFailure> =>
  Effect.gen(function*() {
    const built = yield* run.attempt(step, () =>
      Either.flatMap(buildRequest(run, step, kind.http, { method: "POST", proxy: false }), (request) => {
        const inputs = run.inputs
        const content = kind.content !== undefined ? kind.content(run.scope) : inputs.content ?? inputs.file ?? inputs.body
        const encoding = kind.encoding === undefined ? "base64" : paramText(kind.encoding(run.scope))
        let bytes: Uint8Array | undefined
        if (content instanceof Uint8Array) bytes = content
        else if (typeof content === "string") {
          bytes = encoding === "base64" ? decodeBase64(content) : new Uint8Array(Buffer.from(content, "utf8"))
        }
        if (bytes === undefined) {
          return Either.left(ActionInputError.fromIssues([{
            input: "content",
            message: content === undefined ? "is required (the file to upload)" : "must be bytes or base64 text"
          }]))
        }
        const declaredType = kind.contentType?.(run.scope)
        const contentType = typeof declaredType === "string" && declaredType !== ""
          ? declaredType
          : request.headers["content-type"] ?? "application/octet-stream"
        const headers = { ...request.headers }
        delete headers["content-type"]
        const fileName = kind.fileName?.(run.scope)
        if (typeof fileName === "string" && fileName !== "" && headers["content-disposition"] === undefined) {
          headers["content-disposition"] = `attachment; filename="${fileName.replace(/["\\\r\n]/g, "_")}"`
        }
        return Either.right<BuiltRequest>({ ...request, headers, body: { _tag: "Bytes", value: bytes, contentType } })
      }))
    const response = yield* sendRequest(run, step, built)
    return yield* run.attempt(step, () =>
      Either.map(checkResponse(run, step, kind.http, built, response), (): StepOutput => {
        const dataKey = kind.http.dataKey
        const data = dataKey === undefined ? response.body : readBody(dataKey, response.body, run.bounds)
        return { data, status: response.status, headers: response.headers }
      }))
  }).pipe(run.stepDeadline(step))

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const BASE64_URL = /^[A-Za-z0-9_-]*={0,2}$/

/** Standard or URL-safe base64, a `data:` URL prefix and whitespace allowed; undefined otherwise. */
const decodeBase64 = (text: string): Uint8Array | undefined => {
  const stripped = text.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "")
  if (BASE64.test(stripped)) return new Uint8Array(Buffer.from(stripped, "base64"))
  if (BASE64_URL.test(stripped)) return new Uint8Array(Buffer.from(stripped, "base64url"))
  return undefined
}
