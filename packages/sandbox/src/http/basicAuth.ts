import type * as Http from "node:http"

/** Basic credentials from the Authorization header, or undefined; no colon means no password. */
export const basicAuth = (req: Http.IncomingMessage): { user: string; password: string } | undefined => {
  const header = req.headers.authorization
  if (header === undefined) return undefined
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (match === null) return undefined
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon < 0 ? { user: decoded, password: "" } : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}
