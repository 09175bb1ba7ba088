import type { ApiModel, ApiOperation, ApiParameter } from "./ApiModel.js"
import { compactName } from "./names.js"
import type { JsonObject } from "./RefResolver.js"

/*
 * How a list operation pages, recognized from its query parameters (page/per_page,
 * offset/limit, cursor tokens), its answer's properties (next cursors, next links,
 * has_more, totals) and a declared `Link` answer header. What cannot be told apart is said
 * in `doubts`, for the draft's review comments.
 */

/** How the draft knows that another page follows. */
export type NextSignal =
  | { readonly kind: "link_header" }
  | { readonly kind: "has_more"; readonly path: ReadonlyArray<string>; readonly inverted: boolean }
  | { readonly kind: "next_page"; readonly path: ReadonlyArray<string> }
  | { readonly kind: "total_pages"; readonly path: ReadonlyArray<string> }
  | { readonly kind: "total"; readonly path: ReadonlyArray<string> }
  /** a next link or cursor property that is present while there are more pages */
  | { readonly kind: "present"; readonly path: ReadonlyArray<string> }
  /** a full page suggests another one: a guess */
  | { readonly kind: "full_page" }

export interface PageSize {
  readonly parameter: string
  /** The page size sent when the caller gives none: 25, or the provider's maximum below that. */
  readonly defaultSize: number
  readonly maximum: number | undefined
}

export type Pagination =
  | { readonly style: "page"; readonly parameter: string; readonly firstPage: number; readonly size: PageSize | undefined; readonly signal: NextSignal }
  | { readonly style: "offset"; readonly parameter: string; readonly size: PageSize | undefined; readonly signal: NextSignal }
  | { readonly style: "cursor"; readonly parameter: string; readonly size: PageSize | undefined; readonly nextPath: ReadonlyArray<string> }
  | { readonly style: "next_url"; readonly size: PageSize | undefined; readonly nextPath: ReadonlyArray<string> }
  | { readonly style: "none"; readonly size: PageSize | undefined }

export interface PaginationFinding {
  readonly pagination: Pagination
  /** One line each: what the builder assumed. */
  readonly doubts: ReadonlyArray<string>
}

const PAGE_PARAMS = new Set(["page", "pagenumber", "pagenum", "pageno", "pageindex", "pagenr", "currentpage", "pagenumberparam"])
const SIZE_PARAMS = new Set(["perpage", "per", "pagesize", "size", "pagelimit", "itemsperpage", "resultsperpage", "maxresults", "limit", "top", "take", "rows", "numresults", "pagelength", "count", "max", "numrows", "maxitems", "maxpagesize"])
const OFFSET_PARAMS = new Set(["offset", "skip", "start", "startindex", "startat", "startrow", "pageoffset", "firstresult", "from"])
const CURSOR_PARAMS = new Set(["cursor", "after", "next", "nextcursor", "pagetoken", "nexttoken", "nextpagetoken", "continuation", "continuationtoken", "startingafter", "marker", "scrollid", "pagecursor", "pageafter", "startcursor", "searchafter", "skiptoken", "pagekey", "nextkey", "afterid", "startafter", "pageid"])

const NEXT_URL_NAMES = new Set(["nextlink", "nexturl", "nextpageurl", "nextpagelink", "nexthref", "odatanextlink", "nextpage"])
const NEXT_CURSOR_NAMES = new Set(["nextcursor", "cursor", "nextpagetoken", "nexttoken", "pagetoken", "continuationtoken", "continuation", "endcursor", "after", "nextpagecursor", "scrollid", "nextkey", "nextmarker", "marker", "nextpagekey", "nextpageid", "next"])
const HAS_MORE_NAMES = new Set(["hasmore", "hasnext", "hasnextpage", "more", "moreavailable", "hasmorepages", "hasmoreresults", "nextpageexists", "morerecords", "hasmoreitems", "hasmoredata"])
const IS_LAST_NAMES = new Set(["islast", "islastpage", "last", "lastpage", "done", "complete", "finished"])
const TOTAL_PAGES_NAMES = new Set(["totalpages", "pagecount", "pages", "numpages", "lastpage", "totalpagecount", "pagestotal", "numberofpages"])
const TOTAL_NAMES = new Set(["total", "totalcount", "totalitems", "totalresults", "totalrecords", "count", "totalsize", "recordcount", "numfound", "odatacount", "totalelements", "totalentries", "resultcount", "totalrows"])
const NEXT_PAGE_NAMES = new Set(["nextpage", "nextpagenumber", "nextpageno"])
const LINK_PARENTS = new Set(["links", "link", "paging", "pagination", "navigation", "_links", "meta", "page", "pageinfo", "cursor", "cursors", "metadata"])

const DEFAULT_PAGE_SIZE = 25

interface Leaf {
  readonly path: ReadonlyArray<string>
  readonly name: string
  readonly parent: string | undefined
  readonly kind: string
  readonly urlLike: boolean
}

/** The answer's scalar properties up to three levels deep, beside the records. */
const answerLeaves = (model: ApiModel, answer: JsonObject | undefined, recordsPath: ReadonlyArray<string>): ReadonlyArray<Leaf> => {
  const view = model.view
  const leaves: Array<Leaf> = []
  const walk = (schema: JsonObject, path: ReadonlyArray<string>) => {
    if (path.length >= 3) return
    for (const [name, property] of view.properties(schema)) {
      const at = [...path, name]
      if (recordsPath.length > 0 && at.join("\u0000") === recordsPath.join("\u0000")) continue
      const kind = view.kind(property)
      if (kind === "object") {
        // HAL's `_links.next.href`: the object is the link
        const href = view.properties(property).get("href")
        if (href !== undefined && compactName(name) === "next") {
          leaves.push({ path: [...at, "href"], name: "next", parent: path[path.length - 1], kind: "string", urlLike: true })
        } else walk(property, at)
        continue
      }
      if (kind === "array") continue
      const format = view.format(property) ?? ""
      const description = (view.description(property) ?? "").toLowerCase()
      const compact = compactName(name)
      const parent = path[path.length - 1]
      const urlLike = kind === "string" &&
        (/ur[il]/.test(format) || /url|link|href/.test(compact) || /\b(url|link|uri)\b/.test(description) ||
          (compact === "next" && parent !== undefined && ["links", "link", "paging"].includes(compactName(parent))))
      leaves.push({ path: at, name: compact, parent: parent === undefined ? undefined : compactName(parent), kind, urlLike })
    }
  }
  if (answer !== undefined) walk(answer, [])
  return leaves
}

const pageSize = (parameter: ApiParameter | undefined, model: ApiModel): PageSize | undefined => {
  if (parameter === undefined) return undefined
  const schema = model.resolver.deref(parameter.schema)
  const maximum = typeof schema?.maximum === "number" && schema.maximum >= 1 ? Math.floor(schema.maximum) : undefined
  return { parameter: parameter.name, defaultSize: maximum !== undefined && maximum < DEFAULT_PAGE_SIZE ? maximum : DEFAULT_PAGE_SIZE, maximum }
}

/** A leaf that plausibly belongs to paging: at the top, or under an envelope object such as `meta` or `links`. */
const inEnvelope = (leaf: Leaf) => leaf.path.length === 1 || (leaf.parent !== undefined && LINK_PARENTS.has(leaf.parent))

const describePath = (path: ReadonlyArray<string>) => path.join(".")

export const detectPagination = (
  model: ApiModel,
  operation: ApiOperation,
  answer: JsonObject | undefined,
  recordsPath: ReadonlyArray<string>
): PaginationFinding => {
  const query = operation.parameters.filter((parameter) => parameter.in === "query")
  const view = model.view
  // a date is never a page, an offset, a size or a cursor (`start=2024-01-01`)
  const isDate = (parameter: ApiParameter) => /date/.test(view.format(parameter.schema) ?? "")
  const isCount = (parameter: ApiParameter) => {
    const kind = view.kind(parameter.schema)
    return !isDate(parameter) && (kind === "integer" || kind === "number" || kind === "string" || kind === "unknown")
  }
  const find = (names: ReadonlySet<string>, test: (parameter: ApiParameter) => boolean, exclude: ReadonlyArray<ApiParameter | undefined> = []) =>
    query.find((parameter) => names.has(compactName(parameter.name)) && test(parameter) && !exclude.includes(parameter))
  const cursorParameter = find(CURSOR_PARAMS, (parameter) => !isDate(parameter) && view.kind(parameter.schema) !== "boolean")
  // an offset or page typed as text may be a token (Lever's `offset`): one when the answer gives a next cursor
  const tokenParameter = find(new Set([...OFFSET_PARAMS, ...PAGE_PARAMS]), (parameter) => view.kind(parameter.schema) === "string" && !isDate(parameter))
  const pageParameter = find(PAGE_PARAMS, isCount)
  const offsetParameter = find(OFFSET_PARAMS, isCount)
  const sizeParameter = find(SIZE_PARAMS, isCount, [pageParameter, cursorParameter, offsetParameter])
  const size = pageSize(sizeParameter, model)

  const leaves = answerLeaves(model, answer, recordsPath).filter(inEnvelope)
  const leaf = (names: ReadonlySet<string>, test: (leaf: Leaf) => boolean = () => true) =>
    leaves.find((candidate) => names.has(candidate.name) && test(candidate))
  const nextUrl = leaf(NEXT_URL_NAMES, (candidate) => candidate.kind === "string" && (candidate.urlLike || candidate.name !== "nextpage")) ??
    leaf(new Set(["next", "href"]), (candidate) => candidate.urlLike)
  const nextCursor = leaf(NEXT_CURSOR_NAMES, (candidate) =>
    !candidate.urlLike && candidate.kind !== "boolean" && (candidate.name !== "next" || cursorParameter !== undefined || tokenParameter !== undefined)
  )
  const hasMore = leaf(HAS_MORE_NAMES, (candidate) => candidate.kind === "boolean")
  const isLast = leaf(IS_LAST_NAMES, (candidate) => candidate.kind === "boolean")
  const totalPages = leaf(TOTAL_PAGES_NAMES, (candidate) => candidate.kind === "integer" || candidate.kind === "number")
  const total = leaf(TOTAL_NAMES, (candidate) => candidate.kind === "integer" || candidate.kind === "number")
  const nextPage = leaf(NEXT_PAGE_NAMES, (candidate) => candidate.kind === "integer" || candidate.kind === "number")
  const linkHeader = operation.response?.headers.includes("link") === true

  const doubts: Array<string> = []
  const signalFor = (style: "page" | "offset"): NextSignal => {
    if (linkHeader) return { kind: "link_header" }
    if (hasMore !== undefined) return { kind: "has_more", path: hasMore.path, inverted: false }
    if (isLast !== undefined) return { kind: "has_more", path: isLast.path, inverted: true }
    if (style === "page" && nextPage !== undefined) return { kind: "next_page", path: nextPage.path }
    if (style === "page" && totalPages !== undefined) return { kind: "total_pages", path: totalPages.path }
    if (total !== undefined) return { kind: "total", path: total.path }
    if (nextUrl !== undefined) return { kind: "present", path: nextUrl.path }
    if (nextCursor !== undefined) return { kind: "present", path: nextCursor.path }
    doubts.push("nothing in the answer says whether another page follows: a full page is taken to mean there is one")
    return { kind: "full_page" }
  }

  if (cursorParameter !== undefined && nextCursor !== undefined) {
    return { pagination: { style: "cursor", parameter: cursorParameter.name, size, nextPath: nextCursor.path }, doubts }
  }
  if (tokenParameter !== undefined && nextCursor !== undefined && nextCursor.kind !== "integer" && nextCursor.kind !== "number") {
    doubts.push(`${tokenParameter.name} is text and the answer gives ${describePath(nextCursor.path)}: read as a cursor, not a count`)
    return { pagination: { style: "cursor", parameter: tokenParameter.name, size: pageSize(find(SIZE_PARAMS, isCount, [tokenParameter]), model), nextPath: nextCursor.path }, doubts }
  }
  if (cursorParameter !== undefined && nextUrl !== undefined && pageParameter === undefined && offsetParameter === undefined) {
    doubts.push(`the ${cursorParameter.name} parameter pages, and the answer's ${describePath(nextUrl.path)} links the next page: the link is followed`)
    return { pagination: { style: "next_url", size, nextPath: nextUrl.path }, doubts }
  }
  if (pageParameter !== undefined) {
    const schema = model.resolver.deref(pageParameter.schema)
    const zeroBased = schema?.minimum === 0 || schema?.default === 0 ||
      /\b(0|zero)-based|starts? (at|from|with) 0\b|first page is 0|default(s| value is)? (to )?0\b/i.test(pageParameter.description ?? "")
    const firstPage = zeroBased ? 0 : 1
    if (size === undefined) doubts.push(`no page size parameter was found beside ${pageParameter.name}: the provider's own page size applies`)
    return { pagination: { style: "page", parameter: pageParameter.name, firstPage, size, signal: signalFor("page") }, doubts }
  }
  if (offsetParameter !== undefined && (size !== undefined || compactName(offsetParameter.name) !== "from")) {
    if (size === undefined) doubts.push(`no page size parameter was found beside ${offsetParameter.name}: the provider's own page size applies`)
    return { pagination: { style: "offset", parameter: offsetParameter.name, size, signal: signalFor("offset") }, doubts }
  }
  if (nextUrl !== undefined) {
    return { pagination: { style: "next_url", size, nextPath: nextUrl.path }, doubts }
  }
  if (cursorParameter !== undefined) {
    doubts.push(
      linkHeader
        ? `the ${cursorParameter.name} parameter pages and the answer has a Link header, but the builder does not read cursors out of Link headers: pagination is left out`
        : `the ${cursorParameter.name} parameter pages, but nothing in the answer was recognized as the next cursor: pagination is left out`
    )
    return { pagination: { style: "none", size }, doubts }
  }
  if (linkHeader) {
    doubts.push("the answer has a Link header but no page, offset or cursor parameter was found: pagination is left out")
  } else if (size !== undefined) {
    doubts.push(`the ${size.parameter} parameter limits the answer, but no way to ask for the next page was found: only the first page is read`)
  }
  return { pagination: { style: "none", size }, doubts }
}
