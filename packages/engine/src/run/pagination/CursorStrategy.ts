import { Data, Either } from "effect"
import type { IteratorPlan, StepPlan } from "../../actionPlan.js"
import type { ActionDefinitionError } from "../../RunErrors.js"
import type { BuiltRequest } from "../http/BuiltRequest.js"
import { resolveUrl, sameOrigin } from "../http/providerUrls.js"
import type { RunState } from "../RunState.js"
import { ABSOLUTE_URL, isRecord, paramText } from "../wireValues.js"

/** How a `paginated_request` carries the provider's cursor into the next page's request. */
export type CursorStrategy = Data.TaggedEnum<{
  /**
   * The cursor is the next page's URL. Without an iterator key only absolute URLs are
   * followed; `iterator.in: url` with a key also follows paths relative to the base URL.
   */
  NextUrl: { readonly absoluteOnly: boolean }
  Query: { readonly key: string }
  Header: { readonly key: string }
  Body: { readonly key: string }
}>

export const CursorStrategy = Data.taggedEnum<CursorStrategy>()

export const cursorStrategyOf = (iterator: IteratorPlan | undefined): CursorStrategy => {
  if (iterator === undefined || iterator.key === undefined) return CursorStrategy.NextUrl({ absoluteOnly: true })
  switch (iterator.in) {
    case "url":
      return CursorStrategy.NextUrl({ absoluteOnly: false })
    case "query":
      return CursorStrategy.Query({ key: iterator.key })
    case "headers":
      return CursorStrategy.Header({ key: iterator.key })
    case "body":
      return CursorStrategy.Body({ key: iterator.key })
  }
}

const isAbsoluteUrl = (value: unknown) => typeof value === "string" && ABSOLUTE_URL.test(value)

/** The caller's `cursor` input as a first page: a URL strategy takes only an absolute URL. */
export const acceptsStartCursor = (strategy: CursorStrategy, given: unknown): boolean =>
  strategy._tag !== "NextUrl" || isAbsoluteUrl(given)

/** Whether the provider's next cursor can be followed at all. */
export const canFollow = (strategy: CursorStrategy, next: unknown): boolean =>
  strategy._tag !== "NextUrl" || !strategy.absoluteOnly || isAbsoluteUrl(next)

/** The first page's request changed to ask for the page at `cursor`. */
export const requestForPage = (
  run: RunState,
  step: StepPlan,
  strategy: CursorStrategy,
  request: BuiltRequest,
  cursor: unknown
): Either.Either<BuiltRequest, ActionDefinitionError> =>
  CursorStrategy.$match(strategy, {
    NextUrl: () =>
      Either.flatMap(resolveUrl(run, paramText(cursor), false, step), (next) =>
        Either.map(
          next.origin === request.url.origin ? Either.right(next) : sameOrigin(run, next, request.url.origin, step),
          (url): BuiltRequest => ({ ...request, url })
        )),
    Query: ({ key }) => {
      request.url.searchParams.set(key, paramText(cursor))
      return Either.right(request)
    },
    Header: ({ key }) => Either.right({ ...request, headers: { ...request.headers, [key.toLowerCase()]: paramText(cursor) } }),
    Body: ({ key }) => {
      const body = request.body
      if (body?._tag === "Form") {
        return Either.right({ ...request, body: { _tag: "Form" as const, value: { ...body.value, [key]: paramText(cursor) } } })
      }
      const current = body?._tag === "Json" && isRecord(body.value) ? body.value : {}
      return Either.right({ ...request, body: { _tag: "Json" as const, value: { ...current, [key]: cursor } } })
    }
  })
