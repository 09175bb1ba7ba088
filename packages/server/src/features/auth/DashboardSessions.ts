import type { Caller } from "@switchyard/api"
import { Duration, Effect, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import { SwitchyardConfig } from "../../platform/Config.js"
import { secretDigest } from "../../platform/crypto/secretDigest.js"
import { ApiKeys } from "./ApiKeys.js"
import { ApiKeyUsage } from "./ApiKeyUsage.js"
import { DashboardSignInRefused } from "./DashboardSessionErrors.js"
import { DashboardSessionsRepo } from "./DashboardSessionsRepo.js"

/** A signed-in dashboard: the caller its key makes it, and when it stops working (the database's clock). */
export interface DashboardSession {
  readonly caller: Caller
  readonly expiresAt: Date
}

/** Tokens are 256-bit random values, stored as their SHA-256 (as API keys are). */
const newToken = () => Crypto.randomBytes(32).toString("base64url")

/**
 * Sign-in for the web dashboard, so a browser never keeps an API key: the key pasted once buys
 * a short-lived, revocable token (the cookie), which then acts as that key, with its scope,
 * until it expires (an absolute lifetime), is signed out, or the key is revoked.
 */
export class DashboardSessions extends Effect.Service<DashboardSessions>()("Switchyard/DashboardSessions", {
  effect: Effect.gen(function*() {
    const repo = yield* DashboardSessionsRepo
    const apiKeys = yield* ApiKeys
    const usage = yield* ApiKeyUsage
    const lifetime = Duration.hours((yield* SwitchyardConfig).dashboardSessionHours)

    /** Opens a session for a valid key; an unknown or revoked key opens nothing. */
    const signIn = (apiKey: Redacted.Redacted) =>
      Effect.gen(function*() {
        const caller = yield* apiKeys.authenticate(Redacted.value(apiKey))
        if (Option.isNone(caller)) return yield* new DashboardSignInRefused()
        const token = newToken()
        const expiresAt = yield* repo.insert({
          id: Crypto.randomUUID(),
          projectId: caller.value.projectId,
          apiKeyId: caller.value.apiKeyId,
          tokenHash: secretDigest(token),
          lifetimeSeconds: Duration.toSeconds(lifetime)
        })
        return { token: Redacted.make(token), caller: caller.value, expiresAt, lifetime } as const
      })

    /**
     * The live session behind a token, or none. Read from the database on every request, with
     * no cache: dashboard traffic is a person clicking, and reading fresh is what makes a
     * revoked key or a sign-out take effect at once on every server.
     */
    const authenticate = (token: Redacted.Redacted): Effect.Effect<Option.Option<DashboardSession>> => {
      const value = Redacted.value(token)
      if (value.length === 0) return Effect.succeedNone
      return Effect.map(repo.findLive(secretDigest(value)), Option.map((row) => {
        // the key is in use, through its session
        usage.touch(row.api_key_id)
        return {
          caller: {
            organizationId: row.organization_id,
            projectId: row.project_id,
            apiKeyId: row.api_key_id,
            scope: row.scope
          },
          expiresAt: row.expires_at
        }
      }))
    }

    /** Ends the session behind a token; nothing happens for an unknown or ended one. */
    const signOut = (token: Redacted.Redacted) => {
      const value = Redacted.value(token)
      return value.length === 0 ? Effect.void : repo.end(secretDigest(value))
    }

    return { signIn, authenticate, signOut } as const
  }),
  dependencies: [DashboardSessionsRepo.Default, ApiKeys.Default, ApiKeyUsage.Default]
}) {}
