import { HttpError } from "../http/httpError.js"

/**
 * Teamtailor answers errors as a JSON:API document: `{"errors": [{title, detail, code, status}]}`
 * (jsonapi.org/format/#errors; Teamtailor's own sample client reads `errors[].title` and `detail`).
 */
export const jsonApiError = (status: number, title: string, detail: string): HttpError =>
  new HttpError(status, { errors: [{ title, detail, code: String(status), status: String(status) }] })

export const recordNotFound = (id: string | undefined): HttpError =>
  jsonApiError(404, "Record not found", `The record identified by ${id ?? ""} could not be found.`)

export const invalidField = (detail: string, pointer: string): HttpError =>
  new HttpError(422, { errors: [{ title: detail, detail: `${pointer.split("/").pop()} - ${detail}`, code: "100", source: { pointer }, status: "422" }] })
