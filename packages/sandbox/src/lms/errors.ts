import { HttpError } from "../http/httpError.js"

/** TalentLMS's error answers: `{"error": {"type", "message"}}`. */
export const lmsError = (status: number, type: string, message: string): HttpError => new HttpError(status, { error: { type, message } })

/** The type TalentLMS gives every refusal but bad credentials. */
export const invalidRequest = (status: number, message: string): HttpError => lmsError(status, "invalid_request_error", message)
