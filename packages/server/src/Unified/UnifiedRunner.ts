import { Effect } from "effect"
import type { ActionRunError } from "../Actions/ActionRunErrors.js"
import { ActionRunner } from "../Actions/ActionRunner.js"
import type { RawCall } from "../Provider/ProviderHttp.js"
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

    const run = (projectId: string, call: UnifiedCall): Effect.Effect<UnifiedResult, UnifiedRunError> =>
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
        const result = yield* runner.execute(projectId, call.accountId, call.operationId, {}, {
          kind: "unified",
          inputs,
          downloads: call.streamDownloads === true ? "stream" : "bytes"
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
        return {
          provider: result.provider,
          data: projectFields(result.data, parseFields(call.fields)),
          next: cursors.encode(call.accountId, call.operationId, result.next),
          raw: call.raw === true ? result.raw() : null
        }
      }).pipe(Effect.withSpan("UnifiedRunner.run", {
        captureStackTrace: false,
        attributes: { "switchyard.unified.operation": call.operationId, "switchyard.account.id": call.accountId }
      }))

    return { run } as const
  }),
  dependencies: [ActionRunner.Default, CursorCodec.Default]
}) {}

