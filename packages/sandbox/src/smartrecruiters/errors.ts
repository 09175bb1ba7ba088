import { HttpError } from "../http/httpError.js"

/**
 * SmartRecruiters' error answers: the Customer API's ErrorResponse, `{"message", "errors": [{"code",
 * "message"}]}`, with the HTTP status of its "Error Handling" page (400 bad request, 401 no valid
 * credential, 404 missing resource, 429 too many requests). The codes are the look-alike's own: the
 * documentation lists none.
 */
export const srError = (status: number, code: string, message: string): HttpError =>
  new HttpError(status, { message, errors: [{ code, message }] })
