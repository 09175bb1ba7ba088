import { HttpError } from "../http/httpError.js"

/** BambooHR reports errors in the `x-bamboohr-error-message` header, with an empty body. */
export const bambooError = (status: number, message: string): HttpError => new HttpError(status, "", { "x-bamboohr-error-message": message })
