import type { Ctx } from "./ctx.js"
import type { HttpError } from "./httpError.js"

/**
 * The request body when it is an object (JSON, or form fields), else undefined for the provider to refuse
 * in its own way; a body that is not valid JSON is refused with the provider's own error, `malformed`.
 */
export const bodyObject = (ctx: Ctx, malformed: () => HttpError): Record<string, unknown> | undefined => {
  let body: unknown
  try {
    body = ctx.body()
  } catch {
    throw malformed()
  }
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined
}
