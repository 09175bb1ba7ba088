import type * as Http from "node:http"
import { HttpError } from "./httpError.js"

/** Larger bodies are refused with a 413 (and the connection dropped) rather than held in memory. */
const MAX_BODY = 64 * 1024 * 1024

export const readBody = (req: Http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new HttpError(413, { message: "Request body too large" }))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

/** JSON, or form fields as an object; `{}` when empty. Throws HttpError(400) on bad JSON. */
export const parseBody = (req: Http.IncomingMessage, raw: Buffer): unknown => {
  if (raw.length === 0) return {}
  const type = (req.headers["content-type"] ?? "").toLowerCase()
  const text = raw.toString("utf8")
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text))
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new HttpError(400, { message: "Request body is not valid JSON" })
  }
}
