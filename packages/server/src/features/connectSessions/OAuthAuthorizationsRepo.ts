import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"

/** A pending OAuth2 authorization started from the connect page (its state only as a digest). */
export const OAuthAuthorizationRow = Schema.Struct({
  state_hash: Schema.String,
  session_id: Schema.String,
  connector_key: Schema.String,
  connector_profile_id: Schema.NullOr(Schema.String),
  auth_method: Schema.String,
  /** The PKCE verifier and the fields the end user entered, sealed. */
  sealed_ciphertext: Schema.String,
  sealed_key_id: Schema.String,
  redirect_uri: Schema.String,
  expires_at: Schema.DateFromSelf
})
export type OAuthAuthorizationRow = typeof OAuthAuthorizationRow.Type

export class OAuthAuthorizationsRepo extends Effect.Service<OAuthAuthorizationsRepo>()("Switchyard/OAuthAuthorizationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insertRow = SqlSchema.void({
      Request: OAuthAuthorizationRow,
      execute: (row) => sql`INSERT INTO oauth_authorizations ${sql.insert(row)}`
    })

    /**
     * Marks the authorization used and answers it, at most once per state: a replayed or
     * concurrent callback finds nothing. Expiry is the caller's to judge (a clear message).
     */
    const claimRow = SqlSchema.findOne({
      Request: Schema.String,
      Result: OAuthAuthorizationRow,
      execute: (stateHash) =>
        sql`
          UPDATE oauth_authorizations SET used_at = now()
          WHERE state_hash = ${stateHash} AND used_at IS NULL
          RETURNING state_hash, session_id::text AS session_id, connector_key,
            connector_profile_id::text AS connector_profile_id, auth_method, sealed_ciphertext, sealed_key_id,
            redirect_uri, expires_at`
    })

    return {
      insert: (row: OAuthAuthorizationRow) => insertRow(row).pipe(Effect.orDie),
      claim: (stateHash: string) => claimRow(stateHash).pipe(Effect.orDie)
    } as const
  })
}) {}
