import { Effect, Either, Stream } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { Evaluator } from "../../evaluate.js"
import { FileDownload } from "../../FileDownload.js"
import { StreamedBody } from "../../ProviderTransport.js"
import type { RunFailure } from "../../RunErrors.js"
import { buildRequest } from "../http/buildRequest.js"
import { checkResponse } from "../http/providerAnswers.js"
import { sendRequest } from "../http/sendRequest.js"
import type { RunState, StepOutput } from "../RunState.js"
import { header, toBytes } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/**
 * `download_file`: a file as bytes (or, with `downloads: "stream"`, a `FileDownload` passed
 * on unread), with its media type and name. The link may point at another host (a
 * pre-signed URL): it is then fetched bare, over https only.
 */
export const downloadFile = (run: RunState, step: StepPlan, kind: StepKindOf<"download_file">): Effect.Effect<StepOutput, RunFailure> => {
  const streamed = run.context.downloads === "stream"
  return Effect.gen(function*() {
    const built = yield* run.attempt(step, () =>
      Either.map(
        buildRequest(run, step, kind.http, { method: "GET", proxy: false, foreignOk: true }),
        (request) => ({ ...request, responseType: streamed ? "stream" as const : "bytes" as const })
      ))
    const response = yield* sendRequest(run, step, built)
    return yield* run.attempt(step, () =>
      Either.map(checkResponse(run, step, kind.http, built, response), (): StepOutput => {
        const declared = (evaluator: Evaluator | undefined) => {
          const value = evaluator?.(run.scope)
          return typeof value === "string" && value !== "" ? value : undefined
        }
        const contentType = declared(kind.contentType) ?? header(response.headers, "content-type") ??
          "application/octet-stream"
        const fileName = declared(kind.fileName) ?? fileNameOf(header(response.headers, "content-disposition"))
        let data: Uint8Array | FileDownload
        if (streamed && response.body instanceof StreamedBody) {
          data = new FileDownload(response.body.stream, contentType, fileName, response.body.contentLength)
        } else {
          const bytes = toBytes(response.body)
          // a transport that answered a streamed download with bytes is passed on as one chunk
          data = streamed ? new FileDownload(Stream.succeed(bytes), contentType, fileName, bytes.byteLength) : bytes
        }
        const output: StepOutput = { data, contentType, status: response.status }
        if (fileName !== undefined) output.fileName = fileName
        return output
      }))
  }).pipe(run.stepDeadline(step))
}

/** The file name of a `Content-Disposition` header (RFC 6266: `filename*` first). */
const fileNameOf = (disposition: string | undefined): string | undefined => {
  if (disposition === undefined) return undefined
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)
  if (extended !== null) {
    try {
      return decodeURIComponent(extended[1]!.trim())
    } catch {
      // a malformed escape: fall back to the plain form
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition)
  return plain === null ? undefined : (plain[1] ?? plain[2])?.trim()
}
