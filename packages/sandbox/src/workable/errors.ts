import { HttpError } from "../http/httpError.js"

/**
 * Workable's error answers: `{"error": "<message>"}` with the HTTP status (401 "Not authorized",
 * 404 "Not found"). The documentation gives no status or body for a refused write (e.g. an
 * unknown stage or a missing member_id); 422 with the same shape is this look-alike's choice.
 */
export const workableError = (status: number, message: string): HttpError => new HttpError(status, { error: message })

export const notFound = (): HttpError => workableError(404, "Not found")

export const unprocessable = (message: string): HttpError => workableError(422, message)
