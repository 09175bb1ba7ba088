import { bodyObject } from "../http/bodyObject.js"
import type { Ctx } from "../http/ctx.js"
import { HttpError } from "../http/httpError.js"

/*
 * Recruitee's refusals, as a public integration describes them (github.com/w6w-io/w6w-apps,
 * apps/recruitee/lib/client.ts, from apidocs.recruitee.com's recorded examples and live calls):
 * validation failures (422) and plain 403/404s answer `{"error": [...]}`, with
 * `"error_fields": {field: [...]}` for the fields at fault; a missing or unknown token answers 401
 * with a Bearer challenge and `{"error": "...", "error_code": ...}`, `error` a bare string there.
 */

export const recruiteeError = (status: number, message: string, fields?: Record<string, ReadonlyArray<string>>): HttpError =>
  new HttpError(status, { error: [message], ...(fields === undefined ? {} : { error_fields: fields }) })

/** 401 without a token, or with one Recruitee does not know (the bodies and challenge measured live). */
export const recruiteeUnauthorized = (tokenGiven: boolean): HttpError =>
  tokenGiven
    ? new HttpError(401, { error: "Token not found.", error_code: "invalid_token" }, {
      "www-authenticate": "Bearer realm=\"recruitee\", error=\"invalid_token\", error_description=\"Token not found.\""
    })
    : new HttpError(401, { error: "Resource access requires authentication!", error_code: null }, { "www-authenticate": "Bearer realm=\"recruitee\"" })

/** The request body as an object ({} for any other JSON, which then lacks what Recruitee requires); bad JSON is a 400. */
export const recruiteeBody = (ctx: Ctx): Record<string, unknown> => bodyObject(ctx, () => recruiteeError(400, "The request body is not valid JSON")) ?? {}
