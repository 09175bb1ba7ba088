import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"

/** BambooHR answers XML unless the client asks for JSON. */

const wantsJson = (ctx: Ctx): boolean => (ctx.req.headers.accept ?? "").toLowerCase().includes("application/json")

/** A 200 answer: `json` when `Accept` names application/json, else the XML document `xml()` makes. */
export const sendJsonOrXml = (ctx: Ctx, json: unknown, xml: () => string): void => {
  if (wantsJson(ctx)) sendJson(ctx.res, 200, json)
  else {
    const text = `<?xml version="1.0"?>\n${xml()}`
    ctx.res.writeHead(200, { "content-type": "text/xml; charset=utf-8", "content-length": String(Buffer.byteLength(text)) })
    ctx.res.end(ctx.method === "HEAD" ? undefined : text)
  }
}

export const xmlEscape = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** `<field id="name">value</field>`; a null value is an empty element, an object its JSON. */
export const fieldXml = (id: string, value: unknown): string =>
  value === null || value === undefined
    ? `<field id="${xmlEscape(id)}"/>`
    : `<field id="${xmlEscape(id)}">${xmlEscape(typeof value === "object" ? JSON.stringify(value) : String(value))}</field>`
