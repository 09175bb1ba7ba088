import { DEFAULT_PAGE_SIZE } from "@switchyard/api"
import { Option, Schema } from "effect"

/** A page of a platform list: which rows to fetch. */
export const PageWindow = Schema.Struct({
  page: Schema.Number,
  pageSize: Schema.Number,
  offset: Schema.Number,
  limit: Schema.Number
})
export type PageWindow = typeof PageWindow.Type

/** None when both `page` and `page_size` are omitted: the caller wants a bare array of everything. */
export const pageWindow = (params: { readonly page?: number | undefined; readonly page_size?: number | undefined }) => {
  if (params.page === undefined && params.page_size === undefined) return Option.none<PageWindow>()
  const page = params.page ?? 1
  const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE
  return Option.some<PageWindow>({ page, pageSize, offset: (page - 1) * pageSize, limit: pageSize })
}

/** The paginated envelope of the platform lists. */
export const pageEnvelope = <A>(window: PageWindow, data: ReadonlyArray<A>, total: number) => ({
  data,
  page: window.page,
  page_size: window.pageSize,
  total,
  next_page: window.page * window.pageSize < total ? window.page + 1 : null
})
