import { SqlClient } from "@effect/sql"
import {
  type ApiKey,
  type ApiKeyList,
  type ApiKeyWithSecret,
  type Caller,
  type CreateApiKey,
  DEFAULT_PAGE_SIZE,
  type ListApiKeysParams,
  MAX_ACTIVE_API_KEYS
} from "@switchyard/api"
import { Effect, Either, Option, Redacted } from "effect"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { signedCursor } from "../../platform/crypto/SignedCursor.js"
import { ApiKeyNotFound, InvalidApiKeyRequest, TooManyApiKeys } from "./ApiKeyErrors.js"
import { ApiKeys } from "./ApiKeys.js"
import { type ApiKeyPosition, type ApiKeyRecord, ApiKeysRepo } from "./ApiKeysRepo.js"
import { ApiKeyUsage } from "./ApiKeyUsage.js"
import { isUuid } from "../../platform/database/isUuid.js"

const MICROS = /^\d{1,18}$/

/** A page's end in one project's list (and whether revoked keys were listed: a cursor keeps to its list). */
const asPosition = (projectId: string, includeRevoked: boolean, value: unknown): Option.Option<ApiKeyPosition> => {
  const { i, p, r, t } = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>
  if (p !== projectId || r !== includeRevoked || typeof t !== "string" || typeof i !== "string") return Option.none()
  return MICROS.test(t) && isUuid(i) ? Option.some({ createdMicros: t, id: i }) : Option.none()
}

/**
 * The caller's project's API keys, as the HTTP API manages them (`/v2/api_keys`): created keys
 * are shown once, listed and revoked keys never show more than their prefix, and another
 * project's keys are not found.
 */
export class ProjectApiKeys extends Effect.Service<ProjectApiKeys>()("Switchyard/ProjectApiKeys", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const apiKeys = yield* ApiKeys
    const repo = yield* ApiKeysRepo
    const usage = yield* ApiKeyUsage
    const cursor = signedCursor((yield* CredentialCipher).derivedKey("api-keys-cursor"))

    const render = (record: ApiKeyRecord): ApiKey => ({
      id: record.id,
      project_id: record.project_id,
      name: record.name,
      scope: record.scope,
      key_prefix: record.key_prefix,
      created_at: record.created_at.toISOString(),
      last_used_at: usage.lastUsed(record.id, record.last_used_at)?.toISOString() ?? null,
      revoked_at: record.revoked_at?.toISOString() ?? null
    })

    /** One creation per project at a time, so the count it checks is the count it adds to. */
    const create = (caller: Caller, body: CreateApiKey) =>
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`api_keys:${caller.projectId}`}))`
        if ((yield* repo.countActive(caller.projectId)) >= MAX_ACTIVE_API_KEYS) {
          return yield* new TooManyApiKeys({ limit: MAX_ACTIVE_API_KEYS })
        }
        const { id, key } = yield* apiKeys.create(caller.projectId, body.name.trim(), body.scope ?? "full_access")
        const created = yield* repo.find(caller.projectId, id)
        if (Option.isNone(created)) return yield* Effect.dieMessage(`API key ${id} was not found right after its creation`)
        return { ...render(created.value), key: Redacted.value(key) } satisfies ApiKeyWithSecret
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))

    const list = (caller: Caller, params: ListApiKeysParams) =>
      Effect.gen(function*() {
        const includeRevoked = params.include_revoked === "true"
        let after: ApiKeyPosition | undefined
        if (params.next !== undefined) {
          const position = Either.match(cursor.open(params.next), {
            onLeft: () => Option.none<ApiKeyPosition>(),
            onRight: (value) => asPosition(caller.projectId, includeRevoked, value)
          })
          if (Option.isNone(position)) {
            return yield* new InvalidApiKeyRequest({ message: "next: not a cursor of this project's API keys list" })
          }
          after = position.value
        }
        const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE
        const rows = yield* repo.page(caller.projectId, pageSize + 1, after, includeRevoked)
        const page = rows.slice(0, pageSize)
        const last = page[page.length - 1]
        return {
          data: page.map(render),
          next: rows.length > pageSize && last !== undefined
            ? cursor.seal({ p: caller.projectId, r: includeRevoked, t: last.created_micros, i: last.id })
            : null
        } satisfies ApiKeyList
      })

    const revoke = (caller: Caller, id: string) =>
      Effect.flatMap(repo.revoke(id, Option.some(caller.projectId)), (revoked) =>
        Option.match(revoked, {
          onNone: () => Effect.fail(new ApiKeyNotFound({ keyId: id })),
          onSome: (record) => Effect.succeed(render(record))
        }))

    return { create, list, revoke } as const
  }),
  dependencies: [ApiKeys.Default, ApiKeysRepo.Default, ApiKeyUsage.Default, CredentialCipher.Default]
}) {}
