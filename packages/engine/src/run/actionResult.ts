import { Effect, Either } from "effect"
import { FileDownload } from "../FileDownload.js"
import { type ActionError, ActionLimitError } from "../RunErrors.js"
import type { ActionOutput } from "./RunLimits.js"
import type { RunState } from "./RunState.js"
import { isEmptyCursor } from "./wireValues.js"

/**
 * The action's answer: `result.data` / `result.next` when the connector declares them, else
 * the last step's output (a downloaded file with its media type and name). A list action
 * always answers an array.
 */
export const actionResult = (run: RunState): Effect.Effect<ActionOutput, ActionError> =>
  run.attempt(undefined, () => {
    const { lastStep: last, plan } = run
    let data: unknown
    if (plan.resultData !== undefined) data = plan.resultData(run.scope)
    else if (last?.plan.kind._tag === "download_file") {
      const { contentType, data: bytes, fileName } = last.output
      // a streamed file carries its media type and name itself
      if (bytes instanceof FileDownload) data = bytes
      else data = fileName === undefined ? { data: bytes, contentType } : { data: bytes, contentType, fileName }
    } else data = last?.output.data
    let next = plan.resultNext !== undefined
      ? plan.resultNext(run.scope)
      : plan.resultData === undefined
      ? last?.output.next
      : undefined
    if (isEmptyCursor(next)) next = undefined
    if (!plan.isList) return Either.right({ data, next })
    const list: Array<unknown> = data === undefined || data === null ? [] : Array.isArray(data) ? data : [data]
    if (list.length > run.limits.maxRecords) {
      return Either.left(
        new ActionLimitError({
          limit: "maxRecords",
          message: `result holds ${list.length} records; at most ${run.limits.maxRecords} allowed (maxRecords)`
        })
      )
    }
    return Either.right({ data: list, next })
  })
