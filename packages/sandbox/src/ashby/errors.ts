import { HttpError } from "../http/httpError.js"

/**
 * Ashby's refusals (developers.ashbyhq.com/docs/responses and the error schema of every reference
 * page): `{success: false, errors: [code] (deprecated), errorInfo: {code, message, requestId}}`.
 * "What would be 4XX errors will return 200 with success being false"; only a missing key (401),
 * a wrong or deactivated key (403, docs/authentication) and rate limits (429) change the status.
 */
let requests = 0

export const ashbyError = (code: string, message: string, status = 200): HttpError =>
  new HttpError(status, {
    success: false,
    errors: [code],
    errorInfo: { code, message, requestId: `01SANDBOX${String(++requests).padStart(17, "0")}` }
  })

/**
 * A record the key cannot see. The documentation's example is `application_not_found`; the other
 * records' codes are not listed, so they follow its pattern (`candidate_not_found`, ...).
 */
export const notFound = (record: string, message: string): HttpError => ashbyError(`${record}_not_found`, message)

/** `invalid_input` is the documented code of a malformed request ("Request payload is malformed"). */
export const invalidInput = (message: string): HttpError => ashbyError("invalid_input", message)
