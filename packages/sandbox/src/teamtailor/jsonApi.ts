import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import { jsonApiError } from "./errors.js"

/**
 * The JSON:API documents Teamtailor answers with (docs.teamtailor.com, jsonapi.org/format): resource
 * objects with `links.self`, `attributes` and `relationships` (each with its self and related links,
 * and its resource linkage `data` only when the relation is in the request's `include`), the included
 * resources in `included`, and for lists `meta` (record-count, page-count) and `links` (first, prev,
 * next, last) paged by `page[number]` and `page[size]` (default 10, at most 30).
 */

export const MEDIA_TYPE = "application/vnd.api+json"

export type Linkage =
  | { readonly type: string; readonly id: number | null }
  | { readonly type: string; readonly ids: ReadonlyArray<number> }

export interface Resource {
  readonly type: string
  readonly id: number
  readonly attributes: Record<string, unknown>
  readonly relationships: Record<string, Linkage>
  /** Extra links beside `self` (a job's career-site URLs). */
  readonly links?: Record<string, string>
}

/** Finds a resource to include by type and id. */
export type Resolve = (type: string, id: number) => Resource | undefined

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 30

export const sendDocument = (ctx: Ctx, status: number, body: unknown): void => sendJson(ctx.res, status, body, { "content-type": MEDIA_TYPE })

/** The relations named by `include` (comma separated), each one a relation of `type` (else 400). */
export const includeNames = (ctx: Ctx, type: string, relations: ReadonlyArray<string>): Set<string> => {
  const raw = ctx.query.get("include")
  const names = raw === null || raw === "" ? [] : raw.split(",").map((name) => name.trim())
  for (const name of names) {
    if (!relations.includes(name)) throw jsonApiError(400, "Invalid field", `${name} is not a valid relationship of ${type}`)
  }
  return new Set(names)
}

const serialize = (api: string, resource: Resource, include: ReadonlySet<string>): Record<string, unknown> => {
  const self = `${api}/${resource.type}/${resource.id}`
  return {
    id: String(resource.id),
    type: resource.type,
    links: { self, ...resource.links },
    attributes: resource.attributes,
    relationships: Object.fromEntries(Object.entries(resource.relationships).map(([name, linkage]) => {
      const links = { self: `${self}/relationships/${name}`, related: `${self}/${name}` }
      if (!include.has(name)) return [name, { links }]
      const data = "ids" in linkage
        ? linkage.ids.map((id) => ({ type: linkage.type, id: String(id) }))
        : linkage.id === null ? null : { type: linkage.type, id: String(linkage.id) }
      return [name, { links, data }]
    }))
  }
}

/** The resources the primary data's included relations point to, each once, in order of first mention. */
const included = (api: string, primary: ReadonlyArray<Resource>, include: ReadonlySet<string>, resolve: Resolve): Array<unknown> => {
  const seen = new Set<string>()
  const out: Array<unknown> = []
  for (const resource of primary) {
    for (const name of include) {
      const linkage = resource.relationships[name]
      if (linkage === undefined) continue
      const ids = "ids" in linkage ? linkage.ids : linkage.id === null ? [] : [linkage.id]
      for (const id of ids) {
        const key = `${linkage.type}/${id}`
        if (seen.has(key)) continue
        seen.add(key)
        const target = resolve(linkage.type, id)
        if (target !== undefined) out.push(serialize(api, target, new Set()))
      }
    }
  }
  return out
}

/** The API's root as links show it (`https://host/v1`). */
export const apiRoot = (ctx: Ctx): string => `${ctx.origin}/v1`

/** One resource as a document. */
export const sendResource = (ctx: Ctx, status: number, resource: Resource, relations: ReadonlyArray<string>, resolve: Resolve): void => {
  const include = includeNames(ctx, resource.type, relations)
  const api = apiRoot(ctx)
  const extra = include.size === 0 ? {} : { included: included(api, [resource], include, resolve) }
  sendDocument(ctx, status, { data: serialize(api, resource, include), ...extra })
}

const pageParam = (ctx: Ctx, name: string, fallback: number, max: number): number => {
  const raw = ctx.query.get(`page[${name}]`)
  if (raw === null) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1 || value > max) throw jsonApiError(400, "Invalid page value", `${raw} is not a valid value for ${name} page parameter.`)
  return value
}

/** A page of `resources` (already filtered and sorted) as a list document. */
export const sendList = (ctx: Ctx, type: string, resources: ReadonlyArray<Resource>, relations: ReadonlyArray<string>, resolve: Resolve): void => {
  const include = includeNames(ctx, type, relations)
  const size = pageParam(ctx, "size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
  const number = pageParam(ctx, "number", 1, Number.MAX_SAFE_INTEGER)
  const pageCount = Math.max(1, Math.ceil(resources.length / size))
  const api = apiRoot(ctx)
  // Links keep the request's other parameters; URLSearchParams writes the brackets as %5B / %5D.
  const link = (target: number): string => {
    const query = new URLSearchParams(ctx.query)
    query.set("page[number]", String(target))
    query.set("page[size]", String(size))
    return `${api}${ctx.path.slice("/v1".length)}?${query.toString()}`
  }
  const page = resources.slice((number - 1) * size, number * size)
  const links: Record<string, string> = { first: link(1) }
  if (number > 1) links["prev"] = link(Math.min(number - 1, pageCount))
  if (number < pageCount) links["next"] = link(number + 1)
  links["last"] = link(pageCount)
  const extra = include.size === 0 ? {} : { included: included(api, page, include, resolve) }
  sendDocument(ctx, 200, {
    data: page.map((resource) => serialize(api, resource, include)),
    ...extra,
    meta: { "record-count": resources.length, "page-count": pageCount },
    links
  })
}
