import { HttpError } from "../http/httpError.js"

/**
 * Recruitee's refusals. The stored documentation shows no error body for the ATS API, so the look-alike
 * answers a short `{"error": ...}` and the connector reads only the status codes.
 */
export const recruiteeError = (status: number, message: string): HttpError => new HttpError(status, { error: message })
