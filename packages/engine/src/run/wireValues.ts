/* Small conversions between connector values and what goes on (or comes off) the wire. */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const isSuccess = (status: number) => status >= 200 && status < 300

/** A URL with a scheme (`https:`, `mailto:`, ...), as opposed to a path. */
export const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i

/** Text of a query, header or form value: strings as is, scalars stringified, the rest as JSON. */
export const paramText = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" || typeof value === "bigint"
  ? String(value)
  : value instanceof Date
  ? value.toISOString()
  : JSON.stringify(value) ?? ""

/** A header by its lower-case name, whatever case the provider sent it in. */
export const header = (headers: Readonly<Record<string, string>>, name: string): string | undefined => {
  if (headers[name] !== undefined) return headers[name]
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key]
  return undefined
}

/** A cursor that means "no further page". */
export const isEmptyCursor = (value: unknown) => value === undefined || value === null || value === "" || value === false

export const byteLength = (body: unknown): number | undefined =>
  typeof body === "string" ? Buffer.byteLength(body, "utf8") : body instanceof Uint8Array ? body.byteLength : undefined

export const toBytes = (body: unknown): Uint8Array => {
  if (body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  if (typeof body === "string") return new Uint8Array(Buffer.from(body, "utf8"))
  if (body === undefined || body === null) return new Uint8Array(0)
  return new Uint8Array(Buffer.from(JSON.stringify(body), "utf8"))
}
