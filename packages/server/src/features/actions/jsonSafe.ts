/** Bytes cannot travel in JSON as they are: connectors and RPC callers get them as base64, wherever they sit. */
export const jsonSafe = (value: unknown): unknown => {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64")
  if (Array.isArray(value)) return value.map(jsonSafe)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonSafe(item)]))
  }
  return value
}
