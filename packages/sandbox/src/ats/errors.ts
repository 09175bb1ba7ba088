import { HttpError } from "../http/httpError.js"

/** Greenhouse's error answers: 422 naming the field, 422 for a state conflict, 404. */

export const validationError = (message: string, field: string): HttpError => new HttpError(422, { message: "Validation error", errors: [{ message, field }] })

export const stateError = (message: string): HttpError => new HttpError(422, { errors: [{ message }] })

export const notFoundError = (): HttpError => new HttpError(404, { message: "Resource not found" })
