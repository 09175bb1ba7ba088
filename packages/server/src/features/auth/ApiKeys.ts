import type { ApiKeyScope, Caller } from "@switchyard/api"
import { Data, Effect, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"
import { secretDigest } from "../../platform/crypto/secretDigest.js"
import { type ApiKeyRecord, ApiKeysRepo } from "./ApiKeysRepo.js"
import { ApiKeyUsage } from "./ApiKeyUsage.js"

export const API_KEY_PREFIX = "swy_"
const MIN_REGISTERED_KEY_LENGTH = 24

export class InvalidApiKey extends Data.TaggedError("InvalidApiKey")<{ readonly message: string }> {}

/** Keys are 256-bit random tokens, so a plain SHA-256 is enough to store them safely. */
export const hashApiKey = secretDigest

const generateKey = () => API_KEY_PREFIX + Crypto.randomBytes(32).toString("base64url")

/** What an operator sees of a key after it was created: never the key itself. */
const displayPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 6)

export class ApiKeys extends Effect.Service<ApiKeys>()("Switchyard/ApiKeys", {
  effect: Effect.gen(function*() {
    const repo = yield* ApiKeysRepo
    const usage = yield* ApiKeyUsage
    // A key revoked here stops working at once; revoked by another process (the CLI, another
    // server), within the epoch poll's bound. Only known keys are cached: a new key works at
    // once and unknown keys cannot fill the cache.
    const known = (yield* CacheEpochs).make<string, ApiKeyRecord>(10_000)
    const lookup = (keyHash: string) =>
      known.get(keyHash, Effect.flatten(repo.findActiveByHash(keyHash))).pipe(Effect.option)

    const store = (projectId: string, name: string, scope: ApiKeyScope, key: string) =>
      Effect.gen(function*() {
        const id = Crypto.randomUUID()
        yield* repo.insert({
          id,
          project_id: projectId,
          name,
          scope,
          key_hash: hashApiKey(key),
          key_prefix: displayPrefix(key)
        })
        return { id, key: Redacted.make(key) }
      })

    /** Creates a key; the returned secret is the only time it is ever available. */
    const create = (projectId: string, name: string, scope: ApiKeyScope) =>
      store(projectId, name, scope, generateKey())

    /** Registers an operator-chosen key (automation); refuses short or already registered keys. */
    const register = (projectId: string, name: string, scope: ApiKeyScope, key: Redacted.Redacted) =>
      Effect.gen(function*() {
        const value = Redacted.value(key)
        if (value.length < MIN_REGISTERED_KEY_LENGTH || /[\s:]/.test(value)) {
          return yield* new InvalidApiKey({
            message: `an API key must be at least ${MIN_REGISTERED_KEY_LENGTH} characters without spaces or colons`
          })
        }
        if (yield* repo.existsWithHash(hashApiKey(value))) {
          return yield* new InvalidApiKey({ message: "that API key is already registered" })
        }
        return yield* store(projectId, name, scope, value)
      })

    const isRegistered = (key: Redacted.Redacted) => repo.existsWithHash(hashApiKey(Redacted.value(key)))

    /** The caller behind a key, or none for an unknown or revoked key. */
    const authenticate = (key: string): Effect.Effect<Option.Option<Caller>> =>
      key.length === 0
        ? Effect.succeed(Option.none())
        : lookup(hashApiKey(key)).pipe(
          Effect.map(Option.map((record) => {
            usage.touch(record.id)
            return {
              organizationId: record.organization_id,
              projectId: record.project_id,
              apiKeyId: record.id,
              scope: record.scope
            }
          }))
        )


    return { create, register, isRegistered, authenticate, list: repo.list, revoke: repo.revoke } as const
  }),
  dependencies: [ApiKeysRepo.Default, ApiKeyUsage.Default, CacheEpochs.Default]
}) {}
