import { Effect, Either } from "effect"
import { type ActionRunError, AnswerMisfit } from "../actions/ActionRunErrors.js"
import { type ActionRunResult, ActionRunner } from "../actions/ActionRunner.js"
import type { RawCall } from "../../platform/outboundHttp/ProviderHttp.js"
import { CursorCodec } from "./CursorCodec.js"
import { parseFields, projectFields } from "./projectFields.js"
import { type InvalidCursor, OperationNotImplemented } from "./UnifiedErrors.js"

export const UNIFIED_DEFAULT_PAGE_SIZE = 25

/** A unified call, already decoded from the HTTP request. */
export interface UnifiedCall {
  readonly operationId: string
  readonly accountId: string
  readonly path?: Readonly<Record<string, string>> | undefined
  /** `filter[...]` keys without the brackets. */
  readonly filter?: Readonly<Record<string, unknown>> | undefined
  /** `proxy[...]` keys without the brackets: passed to the provider request's query. */
  readonly proxy?: Readonly<Record<string, unknown>> | undefined
  readonly raw?: boolean | undefined
  readonly fields?: string | undefined
  readonly pageSize?: number | undefined
  readonly next?: string | undefined
  /** Deprecated paging and sync parameters, still honoured. */
  readonly page?: string | undefined
  readonly updatedAfter?: string | undefined
  readonly syncToken?: string | undefined
  readonly expand?: string | undefined
  readonly include?: string | undefined
  /** Other operation parameters, passed as inputs under their own names. */
  readonly extra?: Readonly<Record<string, unknown>> | undefined
  readonly body?: unknown
  /** A document download answered as it arrives: the file comes back as an unread `FileDownload`. */
  readonly streamDownloads?: boolean | undefined
}

/** A connector without the operation's action does not implement it: no action is "not found" here. */
export type UnifiedRunError = Exclude<ActionRunError, { readonly _tag: "ActionNotFound" }> | OperationNotImplemented | InvalidCursor

export interface UnifiedResult {
  /** The key of the account's connector, naming the provider. */
  readonly provider: string
  readonly data: unknown
  readonly next: string | null
  readonly raw: ReadonlyArray<RawCall> | null
}

/** The answer's body of a result, or what keeps the result from its schema (`path: expectation` issues). */
export type AnswerBody = (result: UnifiedResult) => Either.Either<string, string>

/**
 * Runs a unified operation through the account's connector: the action whose id is the
 * operation id (not implemented when the connector has none), with inputs as the connector format
 * describes (path ids, page_size, cursor, filter_<key>, proxy, body); then projects
 * `fields` and wraps the provider cursor into a signed `next`.
 */
export class UnifiedRunner extends Effect.Service<UnifiedRunner>()("Switchyard/UnifiedRunner", {
  effect: Effect.gen(function*() {
    const runner = yield* ActionRunner
    const cursors = yield* CursorCodec

    /**
     * Runs the call; with `answerBody`, also the body of its answer, made before the run is
     * logged, so a result that does not fit its schema fails the run (502, and so in the log).
     */
    const run = (
      projectId: string,
      call: UnifiedCall,
      answerBody?: AnswerBody
    ): Effect.Effect<UnifiedResult & { readonly body: string | undefined }, UnifiedRunError> =>
      Effect.gen(function*() {
        const filter: Record<string, unknown> = { ...call.filter }
        // deprecated flat forms: filter[updated_after] wins, then updated_after, then sync_token (a time)
        filter.updated_after ??= call.updatedAfter ?? call.syncToken
        if (filter.updated_after === undefined) delete filter.updated_after
        const following = call.next !== undefined && call.next !== ""
        const cursor = following ? yield* cursors.decode(call.next!, call.accountId, call.operationId) : call.page
        // a deprecated page number is the cursor of page-numbered connectors; others read `page`
        const page = following || call.page === undefined ? {} : { page: call.page }
        const inputs: Record<string, unknown> = {
          ...call.extra,
          ...call.path,
          ...Object.fromEntries(Object.entries(filter).map(([key, value]) => [`filter_${key}`, value])),
          page_size: call.pageSize ?? UNIFIED_DEFAULT_PAGE_SIZE,
          ...(cursor === undefined ? {} : { cursor }),
          ...page,
          ...(call.proxy === undefined || Object.keys(call.proxy).length === 0 ? {} : { proxy: call.proxy }),
          ...(call.syncToken === undefined ? {} : { sync_token: call.syncToken }),
          ...(call.expand === undefined ? {} : { expand: call.expand }),
          ...(call.include === undefined ? {} : { include: call.include }),
          ...(call.body === undefined ? {} : { body: call.body })
        }
        const fields = parseFields(call.fields)
        const unifiedOf = (ran: ActionRunResult): UnifiedResult => ({
          provider: ran.provider,
          data: projectFields(ran.data, fields),
          next: cursors.encode(call.accountId, call.operationId, ran.next),
          raw: call.raw === true ? ran.raw() : null
        })
        // the result and body the run accepted, kept so that neither is made twice
        let accepted: { readonly result: UnifiedResult; readonly body: string } | undefined
        const accept = answerBody === undefined ? undefined : (ran: ActionRunResult) => {
          const result = unifiedOf(ran)
          return Either.match(answerBody(result), {
            onLeft: (issues) => issues,
            onRight: (body) => {
              accepted = { result, body }
              return undefined
            }
          })
        }
        const ran = yield* runner.execute(projectId, call.accountId, call.operationId, {}, {
          kind: "unified",
          inputs,
          downloads: call.streamDownloads === true ? "stream" : "bytes",
          accept
        }).pipe(
          Effect.catchTag("ActionNotFound", (missing) =>
            Effect.fail(
              new OperationNotImplemented({
                operationId: missing.actionId,
                connectorKey: missing.connectorKey,
                connectorVersion: missing.connectorVersion
              })
            ))
        )
        if (accepted !== undefined) return { ...accepted.result, body: accepted.body }
        // a replayed write (an Idempotency-Key's stored result) was not run, so not checked either
        const result = unifiedOf(ran)
        if (answerBody === undefined) return { ...result, body: undefined }
        return yield* Either.match(answerBody(result), {
          onLeft: (issues) => Effect.fail(new AnswerMisfit({ provider: result.provider, issues })),
          onRight: (body) => Effect.succeed({ ...result, body })
        })
      }).pipe(Effect.withSpan("UnifiedRunner.run", {
        captureStackTrace: false,
        attributes: { "switchyard.unified.operation": call.operationId, "switchyard.account.id": call.accountId }
      }))

    return { run } as const
  }),
  dependencies: [ActionRunner.Default, CursorCodec.Default]
}) {}

