import { Effect, Option, Stream } from "effect"

/** What a unified list operation answers: a page of records and the cursor of the next page. */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly next: string | null
}

/** Where a list continues: empty for the first page, `{ next }` after; spread it into `urlParams`. */
export type Cursor = { readonly next?: string }

/** The record type of a list answer. */
export type RecordOf<P extends Page<unknown>> = P["data"][number]

const cursorAfter = (page: Page<unknown>): Option.Option<Cursor> =>
  page.next === null || page.next === "" ? Option.none() : Option.some({ next: page.next })

/**
 * The pages of a unified list, following `next` until it is null. `list` makes one call:
 * `(cursor) => client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 100, ...cursor } })`.
 */
export const paginatePages = <P extends Page<unknown>, E, R>(
  list: (cursor: Cursor) => Effect.Effect<P, E, R>
): Stream.Stream<P, E, R> =>
  Stream.paginateEffect({} as Cursor, (cursor) => Effect.map(list(cursor), (page) => [page, cursorAfter(page)] as const))

/** The records of a unified list, page after page, as one stream (see `paginatePages`). */
export const paginate = <P extends Page<unknown>, E, R>(
  list: (cursor: Cursor) => Effect.Effect<P, E, R>
): Stream.Stream<RecordOf<P>, E, R> => Stream.mapConcat(paginatePages(list), (page) => page.data)

/** `paginatePages` for Promise callers: an async iterable of pages. */
export async function* pagesAsync<P extends Page<unknown>>(list: (cursor: Cursor) => Promise<P>): AsyncGenerator<P> {
  let cursor: Option.Option<Cursor> = Option.some({})
  while (Option.isSome(cursor)) {
    const page = await list(cursor.value)
    yield page
    cursor = cursorAfter(page)
  }
}

/** `paginate` for Promise callers: an async iterable of records. */
export async function* paginateAsync<P extends Page<unknown>>(
  list: (cursor: Cursor) => Promise<P>
): AsyncGenerator<RecordOf<P>> {
  for await (const page of pagesAsync(list)) yield* page.data as ReadonlyArray<RecordOf<P>>
}
