import { Data } from "effect"

/*
 * How the project's key management fails. Each error states its own message; `toApiError`
 * chooses the status.
 */

export class ApiKeyNotFound extends Data.TaggedError("ApiKeyNotFound")<{ readonly keyId: string }> {
  override get message() {
    return `API key ${this.keyId} not found among the project's active keys`
  }
}

/** A request the schema accepts but the rules refuse (a `next` of another list). */
export class InvalidApiKeyRequest extends Data.TaggedError("InvalidApiKeyRequest")<{ readonly message: string }> {}

export class TooManyApiKeys extends Data.TaggedError("TooManyApiKeys")<{ readonly limit: number }> {
  override get message() {
    return `a project may hold at most ${this.limit} active API keys: revoke one before creating another`
  }
}

export type ApiKeyError = ApiKeyNotFound | InvalidApiKeyRequest | TooManyApiKeys
