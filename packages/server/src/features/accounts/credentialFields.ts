import type { AuthenticationMethod } from "@switchyard/engine"
import { isAuthorizationCode } from "../connectors/authenticationMethods.js"

/** A field an authentication method's credentials may hold; `aliases` are other spellings the engine reads. */
export interface CredentialField {
  readonly key: string
  readonly required: boolean
  readonly aliases?: ReadonlyArray<string>
}

/** What an OAuth2 authorization-code link stores beside the method's own fields (`oauthCredentials`). */
const tokenFields: ReadonlyArray<CredentialField> = [
  { key: "accessToken", required: true },
  { key: "refreshToken", required: false },
  { key: "expiresAt", required: false },
  { key: "issuedAt", required: false },
  { key: "tokenType", required: false },
  { key: "scope", required: false }
]

/** The OAuth app a client-credentials method fetches its token with (the engine reads both spellings). */
const clientFields: ReadonlyArray<CredentialField> = [
  { key: "clientId", required: true, aliases: ["client_id"] },
  { key: "clientSecret", required: true, aliases: ["client_secret"] }
]

const declaredFields = (method: AuthenticationMethod): ReadonlyArray<CredentialField> =>
  (method.configFields ?? []).map((field) => ({ key: field.key, required: field.required === true }))

/**
 * The fields of what an end user types on the connect page: the method's `configFields`
 * (an OAuth2 method's tokens come from the provider, not the form).
 */
export const enteredFields = declaredFields

/**
 * The fields of an account's stored credentials, as `POST /v2/accounts` receives them: the
 * method's `configFields`, plus what the engine reads for the method's kind — the tokens of
 * an authorization-code method, the OAuth app of a client-credentials one — unless declared.
 */
export const storedFields = (method: AuthenticationMethod): ReadonlyArray<CredentialField> => {
  const declared = declaredFields(method)
  const implicit = method.type !== "oauth2" ? [] : isAuthorizationCode(method) ? tokenFields : clientFields
  const names = new Set(declared.map((field) => field.key))
  return [
    ...declared,
    ...implicit.filter((field) => !names.has(field.key) && !(field.aliases ?? []).some((alias) => names.has(alias)))
  ]
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "")

/**
 * What is wrong with `values` as credentials of a method with `fields`, all problems at once:
 * each required field missing (absent, null or blank), each field the method does not have,
 * each value that is not a string. An empty list means they fit. Never quotes a value.
 */
export const credentialProblems = (
  fields: ReadonlyArray<CredentialField>,
  values: Readonly<Record<string, unknown>>
): ReadonlyArray<string> => {
  const known = new Set(fields.flatMap((field) => [field.key, ...(field.aliases ?? [])]))
  const spellings = (field: CredentialField) => [field.key, ...(field.aliases ?? [])]
  const missing = fields.filter((field) => field.required && spellings(field).every((key) => isBlank(values[key])))
  const unknown = Object.keys(values).filter((key) => !known.has(key))
  const notText = Object.entries(values).filter(([key, value]) =>
    known.has(key) && value !== null && value !== undefined && typeof value !== "string"
  )
  return [
    ...(missing.length === 0 ? [] : [`lack ${missing.map((field) => spellings(field).join(" or ")).join(", ")}`]),
    ...(unknown.length === 0 ? [] : [`have unknown ${unknown.join(", ")}`]),
    ...(notText.length === 0 ? [] : [`have non-string ${notText.map(([key]) => key).join(", ")}`])
  ]
}

/** The expected fields as a message lists them: `apiKey (required), onBehalfOf`, or `none`. */
export const describeFields = (fields: ReadonlyArray<CredentialField>): string =>
  fields.length === 0
    ? "none"
    : fields.map((field) => `${[field.key, ...(field.aliases ?? [])].join(" or ")}${field.required ? " (required)" : ""}`)
      .join(", ")

/**
 * The one wording of a refusal, for API and connect-page links alike, e.g.
 * `credentials lack apiKey; have unknown api_key (authentication "apiKey" of greenhouse@1.3.0 expects: apiKey (required), onBehalfOf)`.
 */
export const credentialsRefusal = (
  problems: ReadonlyArray<string>,
  methodName: string,
  subject: string,
  fields: ReadonlyArray<CredentialField>
): string => `credentials ${problems.join("; ")} (authentication "${methodName}" of ${subject} expects: ${describeFields(fields)})`
