import type { NextSignal, Pagination } from "./detectPagination.js"
import { jexlPath, jsonPath } from "./names.js"

/*
 * A list action's pagination as the connector format writes it: the page size and cursor
 * arguments of its request, the expression that makes its `next` cursor (the next page number
 * or offset when a signal in the answer says there is one, the provider's cursor, or its next
 * link followed by a one-page paginated_request), and the words that explain it in the draft.
 */

/** The input the unified API passes the page size in. */
export const PAGE_SIZE = "page_size"

interface PaginationPlan {
  readonly args: ReadonlyArray<Record<string, unknown>>
  readonly next: string | undefined
  /** paginated_request parameters, when the next page is a link to follow. */
  readonly follow: Record<string, unknown> | undefined
}

const sizeValue = (pagination: Pagination) => {
  const size = pagination.size
  if (size === undefined) return undefined
  const asked = `(inputs.${PAGE_SIZE} ?? ${size.defaultSize})`
  return size.maximum === undefined ? `{{${asked}}}` : `{{${asked} > ${size.maximum} ? ${size.maximum} : ${asked}}}`
}

const signalTest = (signal: NextSignal, stepId: string, records: string, afterPage: { readonly seen: string; readonly size: string }) => {
  const body = (path: ReadonlyArray<string>) => jexlPath(`steps.${stepId}.output.data`, path)
  switch (signal.kind) {
    case "link_header":
      return `includes(steps.${stepId}.output.headers.link, 'rel="next"')`
    case "has_more":
      return signal.inverted ? `!${body(signal.path)}` : `${body(signal.path)}`
    case "next_page":
      return `${body(signal.path)}`
    case "total_pages":
      return `${afterPage.seen} < ${body(signal.path)}`
    case "total":
      return `${afterPage.size} < ${body(signal.path)}`
    case "present":
      return `present(${body(signal.path)})`
    case "full_page":
      return `length(${records}) >= (inputs.${PAGE_SIZE} ?? 25)`
  }
}

export const planPagination = (pagination: Pagination, stepId: string, recordsPath: ReadonlyArray<string>): PaginationPlan => {
  const size = sizeValue(pagination)
  const sizeArg = size === undefined || pagination.size === undefined ? [] : [{ name: pagination.size.parameter, value: size, in: "query" }]
  const records = jexlPath(`steps.${stepId}.output.data`, recordsPath)
  switch (pagination.style) {
    case "page": {
      const first = pagination.firstPage
      const current = `(inputs.cursor ?? ${first}) * 1`
      const pagesSeen = first === 0 ? `(${current} + 1)` : current
      const test = signalTest(pagination.signal, stepId, records, {
        seen: pagesSeen,
        size: `${pagesSeen} * (inputs.${PAGE_SIZE} ?? ${pagination.size?.defaultSize ?? 25})`
      })
      const nextValue = pagination.signal.kind === "next_page"
        ? `"" + ${jexlPath(`steps.${stepId}.output.data`, pagination.signal.path)}`
        : `"" + (${current} + 1)`
      return {
        args: [...sizeArg, { name: pagination.parameter, value: "$.inputs.cursor" , in: "query" }],
        // jexl reads `f(x) ? a : b` only with the call in parentheses
        next: `{{(${test}) ? ${nextValue} : null}}`,
        follow: undefined
      }
    }
    case "offset": {
      const offset = "(inputs.cursor ?? 0) * 1"
      const after = `${offset} + length(${records})`
      const test = signalTest(pagination.signal, stepId, records, { seen: after, size: `(${after})` })
      return {
        args: [...sizeArg, { name: pagination.parameter, value: "$.inputs.cursor", in: "query" }],
        next: `{{(${test}) && length(${records}) > 0 ? "" + (${after}) : null}}`,
        follow: undefined
      }
    }
    case "cursor":
      return {
        args: [...sizeArg, { name: pagination.parameter, value: "$.inputs.cursor", in: "query" }],
        next: jsonPath(`$.steps.${stepId}.output.data`, pagination.nextPath),
        follow: undefined
      }
    case "next_url":
      return {
        args: sizeArg,
        next: `$.steps.${stepId}.output.next`,
        follow: {
          // one page per call: the caller's cursor is the provider's next link
          maxPages: 1,
          response: { ...(recordsPath.length === 0 ? {} : { dataKey: bodyKey(recordsPath) }), nextKey: bodyKey(pagination.nextPath) }
        }
      }
    case "none":
      return { args: sizeArg, next: undefined, follow: undefined }
  }
}

/** `response.dataKey`/`nextKey`: a dotted key path when the names allow one, else an expression over the body. */
const bodyKey = (path: ReadonlyArray<string>) =>
  path.every((segment) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) ? path.join(".") : `{{${jexlPath("$", path)}}}`

export const describePagination = (pagination: Pagination): string => {
  const size = pagination.size === undefined ? "" : `, ${pagination.size.parameter} for the page size`
  switch (pagination.style) {
    case "page":
      return `pages by number (${pagination.parameter}, from ${pagination.firstPage}${size}); the cursor is the page number; another page follows when ${describeSignal(pagination.signal)}`
    case "offset":
      return `pages by offset (${pagination.parameter}${size}); the cursor is the offset; another page follows when ${describeSignal(pagination.signal)}`
    case "cursor":
      return `pages by cursor (${pagination.parameter}${size}); the next cursor is the answer's ${pagination.nextPath.join(".")}`
    case "next_url":
      return `pages by link: the answer's ${pagination.nextPath.join(".")} is the next page's URL, and the cursor (an absolute URL; a relative link is not followed)`
    case "none":
      return `no pagination recognized: one request${pagination.size === undefined ? "" : ` with ${pagination.size.parameter} for the page size`}`
  }
}

const describeSignal = (signal: NextSignal) => {
  switch (signal.kind) {
    case "link_header":
      return 'the Link header has rel="next"'
    case "has_more":
      return `${signal.path.join(".")} is ${signal.inverted ? "false" : "true"}`
    case "next_page":
      return `${signal.path.join(".")} names it`
    case "total_pages":
      return `fewer than ${signal.path.join(".")} pages were read`
    case "total":
      return `fewer than ${signal.path.join(".")} records were read`
    case "present":
      return `${signal.path.join(".")} is present`
    case "full_page":
      return "a page came back full (a guess)"
  }
}
