import type { Ctx } from "./ctx.js"
import type { HttpError } from "./httpError.js"

/**
 * Greenhouse-style page-number pagination (`page`, `per_page`) with RFC 5988 Link headers: next,
 * prev, and last unless `skip_count=true`. Bad parameters throw `options.invalid(message, field)`.
 */
export const paginate = <T>(
  ctx: Ctx,
  items: ReadonlyArray<T>,
  options: { readonly defaultPerPage?: number; readonly maxPerPage?: number; readonly invalid: (message: string, field: string) => HttpError }
): Array<T> => {
  const maxPerPage = options.maxPerPage ?? 500
  const perPageRaw = ctx.query.get("per_page")
  const pageRaw = ctx.query.get("page")
  const perPage = perPageRaw === null ? (options.defaultPerPage ?? 100) : Number(perPageRaw)
  const page = pageRaw === null ? 1 : Number(pageRaw)
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > maxPerPage) throw options.invalid(`per_page must be an integer between 1 and ${maxPerPage}`, "per_page")
  if (!Number.isInteger(page) || page < 1) throw options.invalid("page must be a positive integer", "page")
  const lastPage = Math.max(1, Math.ceil(items.length / perPage))
  const skipCount = ctx.query.get("skip_count") === "true"
  // Links keep the request's other parameters and spell out page and per_page.
  const link = (target: number): string => {
    const query = new URLSearchParams(ctx.query)
    query.set("page", String(target))
    query.set("per_page", String(perPage))
    return `<${ctx.origin}${ctx.path}?${query.toString()}>`
  }
  const parts: Array<string> = []
  if (page < lastPage) parts.push(`${link(page + 1)}; rel="next"`)
  if (page > 1) parts.push(`${link(Math.min(page - 1, lastPage))}; rel="prev"`)
  if (!skipCount && (page > 1 || lastPage > 1)) parts.push(`${link(lastPage)}; rel="last"`)
  if (parts.length > 0) ctx.res.setHeader("link", parts.join(", "))
  return items.slice((page - 1) * perPage, page * perPage)
}
