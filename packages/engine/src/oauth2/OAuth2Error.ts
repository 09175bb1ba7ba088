import { Data } from "effect"
import { redactText, secretForms } from "../redact.js"

/**
 * An OAuth 2.0 step with the provider failed:
 * - `invalid_grant`: the code or refresh token is no longer good (used, expired, revoked, or
 *   the PKCE verifier does not match): the account must be linked again;
 * - `provider_error`: the provider refused otherwise (the user denied consent, the client is
 *   not accepted, another RFC 6749 error, an unexpected status);
 * - `state_mismatch`: the callback does not answer the authorization we started (forged or stale);
 * - `invalid_response`: the provider's answer cannot be read as OAuth 2.0;
 * - `unreachable`: no usable answer (the transport failed, timed out or refused the URL).
 *
 * `message` says what went wrong in words; it never holds a secret (client secret, code,
 * verifier, tokens). `error` and `description` are the provider's RFC 6749 `error` and
 * `error_description`, `status` its HTTP status, when known.
 */
export class OAuth2Error extends Data.TaggedError("OAuth2Error")<{
  readonly kind: "invalid_grant" | "provider_error" | "state_mismatch" | "invalid_response" | "unreachable"
  readonly message: string
  readonly error?: string | undefined
  readonly description?: string | undefined
  readonly status?: number | undefined
}> {}

export type OAuth2ErrorKind = OAuth2Error["kind"]

/** An `OAuth2Error` whose texts have the given secrets (and their encoded forms) redacted. */
export const oauth2Error = (
  fields: ConstructorParameters<typeof OAuth2Error>[0],
  secrets: ReadonlyArray<string | undefined>
): OAuth2Error => {
  const forms = secretForms(secrets.filter((secret): secret is string => secret !== undefined && secret !== ""))
  const clean = (text: string | undefined) => (text === undefined ? undefined : redactText(text, forms))
  return new OAuth2Error({
    kind: fields.kind,
    message: redactText(fields.message, forms),
    ...(fields.error === undefined ? {} : { error: clean(fields.error) }),
    ...(fields.description === undefined ? {} : { description: clean(fields.description) }),
    ...(fields.status === undefined ? {} : { status: fields.status })
  })
}
