import {
  type ActionError,
  ActionInputError,
  type OAuth2Error,
  oauth2Method,
  type ParsedConnector,
  refreshTokens,
  type TokenSet
} from "@switchyard/engine"
import * as Crypto from "node:crypto"
import { Clock, Data, Deferred, Duration, Effect, Either, HashMap, Option, Ref, Schedule, SynchronizedRef } from "effect"
import { type AccountBlocked, AccountNotFound } from "../accounts/AccountErrors.js"
import { AccountCredentials } from "../accounts/AccountsRepo.js"
import { type AccountContext, accountBlocked } from "../accounts/AccountContext.js"
import { SwitchyardConfig } from "../../platform/Config.js"
import { ProfileSetup } from "../connectorProfiles/ProfileSetup.js"
import { isAuthorizationCode, namedMethods } from "../connectors/authenticationMethods.js"
import { oauthClientOf, oauthCredentials } from "./oauthCredentials.js"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import type { CallRecorder, RecordedCall } from "../../platform/outboundHttp/CallRecorder.js"
import { ProviderCaller, ProviderHttp } from "../../platform/outboundHttp/ProviderHttp.js"
import { ServerInstance } from "../../platform/fleet/ServerInstance.js"
import { RefreshLeaseRepo, type StoredCredentials } from "../accounts/RefreshLeaseRepo.js"
import {
  AccountGrantRevoked,
  grantRevokedReason,
  refreshFailed,
  refreshWaitTimedOut
} from "../accounts/TokenRefreshErrors.js"
import { recordTokenRefresh } from "../../platform/metrics/ServerMetrics.js"

export type Credentials = Readonly<Record<string, unknown>>

/** Why a refresh (or the wait for another one) ends a call; every value already redacted. */
export type TokenRefreshError = AccountBlocked | AccountNotFound | ActionError

/** Beyond the longest a token request may take: a lease outlives its holder's provider call. */
const LEASE_MARGIN_SECONDS = 30
/** Waiting for another holder: quick first looks (a refresh takes a round trip), then at most this apart. */
const WAIT_FIRST = Duration.millis(25)
const WAIT_MAX_GAP = Duration.millis(500)

const authorizationCodeMethods = new WeakMap<ParsedConnector, Map<string | undefined, boolean>>()

/**
 * Whether the account's method (the connector's first when unnamed) keeps an
 * authorization-code OAuth2 token on the account, the only tokens refreshed here. Remembered
 * per connector version: nothing is read for the accounts of other methods.
 */
export const usesAuthorizationCode = (connector: ParsedConnector, authMethod: string | undefined): boolean => {
  let known = authorizationCodeMethods.get(connector)
  if (known === undefined) authorizationCodeMethods.set(connector, known = new Map())
  const cached = known.get(authMethod)
  if (cached !== undefined) return cached
  const method = namedMethods(connector).find(([name]) => authMethod === undefined || name === authMethod)?.[1]
  const answer = method !== undefined && isAuthorizationCode(method)
  known.set(authMethod, answer)
  return answer
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

/** Every string a token endpoint's answer holds under a token's name (new tokens are not known in advance). */
const tokenValues = (body: unknown, into: Array<string>, depth = 0): Array<string> => {
  if (typeof body !== "object" || body === null || depth > 4) return into
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string" && /token/i.test(key)) into.push(value)
    else tokenValues(value, into, depth + 1)
  }
  return into
}

/** The stored credentials after a refresh: new tokens over the old (an omitted refresh token keeps the old one). */
const refreshedCredentials = (previous: Credentials, tokens: TokenSet, now: number): Credentials => {
  const { expiresAt: _replaced, issuedAt: _issued, ...rest } = previous
  return { ...rest, ...oauthCredentials({}, tokens, now) }
}

/** Milliseconds since the epoch of a stored time (`expiresAt`, `issuedAt`), when it is readable. */
const timeOf = (credentials: Credentials, key: "expiresAt" | "issuedAt"): number | undefined => {
  const value = credentials[key]
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN
  return Number.isNaN(ms) ? undefined : ms
}

/** The stored version has not moved yet, or its lease is held: look again. */
class NotYet extends Data.TaggedError("NotYet")<{}> {}

interface Flight {
  readonly context: AccountContext
  readonly seen: StoredCredentials
  readonly credentials: Credentials
  readonly recorder: CallRecorder | undefined
}

/**
 * OAuth2 access-token refresh for accounts linked with an authorization-code method, safe
 * across processes sharing the database.
 *
 * - `fresh` before a call: a token expiring within the skew is refreshed first;
 * - `afterRejection` for a run whose token the provider answered 401: unless the stored
 *   token already changed, refresh.
 *
 * One refresh per account and credentials version: callers in this process share one flight
 * (a keyed `Deferred`); across processes the row lease decides who calls the provider. The
 * others look at the row on a bounded schedule until the version moves past the one they
 * saw, then use the new tokens; a lease that expires without a new version is taken over.
 * `invalid_grant` makes the account `expired` (with a reason) as it releases the lease;
 * other failures release it and leave tokens and status as they were. Nothing retries.
 */
export class TokenRefresher extends Effect.Service<TokenRefresher>()("Switchyard/TokenRefresher", {
  scoped: Effect.gen(function*() {
    const repo = yield* RefreshLeaseRepo
    const cipher = yield* CredentialCipher
    const setups = yield* ProfileSetup
    const providerHttp = yield* ProviderHttp
    const instance = yield* ServerInstance
    const config = yield* SwitchyardConfig
    const scope = yield* Effect.scope
    const skewMs = config.oauthRefreshSkewSeconds * 1000
    const leaseSeconds = Math.ceil(config.providerDeadlineMs / 1000) + LEASE_MARGIN_SECONDS
    const waitLimit = Duration.seconds(leaseSeconds + LEASE_MARGIN_SECONDS)
    const flights = yield* SynchronizedRef.make(HashMap.empty<string, Deferred.Deferred<Credentials, TokenRefreshError>>())

    const accountKey = (context: AccountContext) => ({ projectId: context.account.project_id, accountId: context.account.id })

    const open = (stored: StoredCredentials) =>
      cipher.open(AccountCredentials, { keyId: stored.credentials_key_id, ciphertext: stored.credentials_ciphertext }).pipe(
        Effect.orDie
      )

    /** The account as stored now; a blocked one fails as `AccountContexts` would refuse it. */
    const current = (context: AccountContext): Effect.Effect<StoredCredentials, AccountBlocked | AccountNotFound> =>
      Effect.gen(function*() {
        const found = yield* repo.find(accountKey(context))
        if (Option.isNone(found)) return yield* new AccountNotFound({ accountId: context.account.id })
        const stored = found.value
        const blocked = accountBlocked(context.account.id, stored.status, stored.status_reasons)
        if (blocked !== undefined) return yield* blocked
        return stored
      })

    /**
     * The account's authorization-code method, its URLs evaluated as at link time (setup
     * values and credentials, settings), with the profile's OAuth app and the refresh token;
     * or why this account cannot refresh.
     */
    const grantOf = (context: AccountContext, credentials: Credentials) =>
      Effect.gen(function*() {
        const setup = context.profile === undefined ? {} : yield* setups.open(context.account.project_id, context.profile.id)
        const method = oauth2Method(context.connector, context.account.auth_method ?? undefined, {
          credentials: { ...setup, ...credentials },
          settings: context.account.settings
        })
        if (Either.isLeft(method)) return yield* method.left
        const refreshToken = text(credentials.refreshToken)
        const client = oauthClientOf(setup)
        if (refreshToken === undefined || client === undefined) {
          return yield* ActionInputError.fromIssues([
            refreshToken === undefined
              ? { input: "credentials.refreshToken", message: `is needed to refresh the OAuth2 access token of account ${context.account.id}` }
              : {
                input: "setup.clientId",
                message: `is needed to refresh the OAuth2 access token of account ${context.account.id}: ` +
                  "link the account through a connector profile whose setup holds the OAuth app (clientId, clientSecret)"
              }
          ])
        }
        return { method: method.right, client, refreshToken }
      })

    /**
     * The provider call of the lease holder, recorded in the caller's calls with the new
     * tokens redacted too. Answers the new credentials, or None when the lease was lost
     * meanwhile (nothing written, the answer dropped).
     */
    const refreshAsHolder = (flight: Flight, holder: string) =>
      Effect.gen(function*() {
        const { context, credentials, seen } = flight
        const key = accountKey(context)
        const { client, method, refreshToken } = yield* grantOf(context, credentials)
        const { calls, exit } = yield* providerHttp.withTransport(
          { caller: ProviderCaller.Account({ accountId: context.account.id }), provider: context.version.key, action: "oauth2_refresh" },
          refreshTokens(context.connector, method, client, { credentials, settings: context.account.settings, refreshToken })
        )
        const outcome = yield* Effect.either(exit)
        yield* keepCalls(calls, flight.recorder, Either.getRight(outcome))
        recordTokenRefresh(
          context.version.key,
          Either.isRight(outcome) ? "success" : outcome.left.kind === "invalid_grant" ? "revoked" : "failed"
        )
        if (Either.isRight(outcome)) {
          const next = refreshedCredentials(credentials, outcome.right, yield* Clock.currentTimeMillis)
          const written = yield* repo.writeRefreshed(key, seen.credentials_version, holder, cipher.seal(next))
          return written ? Option.some(next) : Option.none()
        }
        const failure: OAuth2Error = outcome.left
        if (failure.kind !== "invalid_grant") {
          yield* Effect.logWarning(`OAuth2 refresh of account ${context.account.id} failed: ${failure.message}`)
          return yield* refreshFailed(context.account.id, method.tokenUrl, failure)
        }
        const reason = grantRevokedReason(failure, new Date(yield* Clock.currentTimeMillis))
        const expired = yield* repo.expire(key, seen.credentials_version, holder, reason)
        if (!expired) return Option.none()
        yield* Effect.logWarning(`account ${context.account.id} is expired: its OAuth2 grant was refused (invalid_grant)`)
        return yield* new AccountGrantRevoked({ accountId: context.account.id, reason: reason.description })
      }).pipe(
        // the lease is ours until written: a failure, a defect or an interruption gives it up
        Effect.ensuring(repo.release(accountKey(flight.context), holder))
      )

    /** The token call as the caller's `raw` shows it: the new tokens are secrets of that call too. */
    const keepCalls = (
      made: ReadonlyArray<RecordedCall>,
      recorder: CallRecorder | undefined,
      tokens: Option.Option<TokenSet>
    ) => {
      if (recorder === undefined) return Effect.void
      const issued = Option.match(tokens, {
        onNone: () => [],
        onSome: (set) => [set.accessToken, ...(set.refreshToken === undefined ? [] : [set.refreshToken])]
      })
      const redacted = made.map((call): RecordedCall => ({
        ...call,
        request: {
          ...call.request,
          secrets: [...call.request.secrets, ...issued, ...tokenValues(call.response?.body, [])]
        }
      }))
      return Ref.update(recorder.calls, (before) => [...before, ...redacted])
    }

    /**
     * One flight: take the lease over the version seen and refresh, or wait for whoever holds
     * it to write the next version. At most one provider call; the wait is bounded.
     */
    const refreshOrAwaitHolder = (flight: Flight): Effect.Effect<Credentials, TokenRefreshError> =>
      Effect.gen(function*() {
        const key = accountKey(flight.context)
        const seenVersion = flight.seen.credentials_version
        let stored: StoredCredentials | undefined = flight.seen
        let attempted = false
        const pollRow = Effect.gen(function*() {
          const now = stored ?? (yield* current(flight.context))
          stored = undefined
          if (now.credentials_version > seenVersion) return yield* open(now)
          if (!attempted && !now.leased) {
            const holder = `${instance.id}/${Crypto.randomUUID()}`
            if (yield* repo.take(key, seenVersion, holder, leaseSeconds)) {
              attempted = true
              const written = yield* refreshAsHolder(flight, holder)
              if (Option.isSome(written)) return written.value
              // the lease expired and was taken over: the taker's write is the one to wait for
            }
          }
          return yield* new NotYet()
        })
        return yield* pollRow.pipe(
          Effect.retry({
            schedule: Schedule.exponential(WAIT_FIRST).pipe(
              Schedule.union(Schedule.spaced(WAIT_MAX_GAP)),
              Schedule.upTo(waitLimit)
            ),
            while: (failure) => failure._tag === "NotYet"
          }),
          Effect.catchTag("NotYet", () => refreshWaitTimedOut(flight.context.account.id, Duration.toSeconds(waitLimit)))
        )
      })

    /**
     * The flight for the account at the version seen: joined when under way in this process,
     * else started, detached from its caller (an interrupted caller leaves the others a result).
     */
    const join = (flight: Flight) => {
      const key = `${flight.context.account.id}:${flight.seen.credentials_version}`
      return SynchronizedRef.modifyEffect(flights, (started) =>
        Option.match(HashMap.get(started, key), {
          onSome: (deferred) => Effect.succeed([deferred, started] as const),
          onNone: () =>
            Effect.gen(function*() {
              const deferred = yield* Deferred.make<Credentials, TokenRefreshError>()
              yield* refreshOrAwaitHolder(flight).pipe(
                Effect.exit,
                Effect.flatMap((exit) => Deferred.done(deferred, exit)),
                Effect.ensuring(SynchronizedRef.update(flights, HashMap.remove(key))),
                Effect.forkIn(scope)
              )
              return [deferred, HashMap.set(started, key, deferred)] as const
            })
        })).pipe(Effect.flatMap(Deferred.await))
    }

    /** Refreshes when the stored tokens are still `stale` (another caller may have refreshed them already). */
    const refreshIf = (
      context: AccountContext,
      stale: (credentials: Credentials) => boolean,
      recorder: CallRecorder | undefined
    ) =>
      Effect.gen(function*() {
        const seen = yield* current(context)
        const credentials = yield* open(seen)
        if (!stale(credentials)) return credentials
        return yield* join({ context, seen, credentials, recorder }).pipe(
          Effect.withSpan("TokenRefresher.refresh", {
            captureStackTrace: false,
            attributes: {
              "switchyard.account.id": context.account.id,
              "switchyard.credentials.version": seen.credentials_version
            }
          })
        )
      })

    const refreshable = (context: AccountContext) =>
      usesAuthorizationCode(context.connector, context.account.auth_method ?? undefined) &&
      text(context.credentials.refreshToken) !== undefined

    /** Within the skew of its expiry; a token that lives less than twice the skew, within half its life. */
    const expiring = (now: number) => (credentials: Credentials) => {
      const expiresAt = timeOf(credentials, "expiresAt")
      if (expiresAt === undefined || text(credentials.refreshToken) === undefined) return false
      const issuedAt = timeOf(credentials, "issuedAt")
      const margin = issuedAt === undefined || issuedAt >= expiresAt ? skewMs : Math.min(skewMs, (expiresAt - issuedAt) / 2)
      return expiresAt - now <= margin
    }

    /**
     * The credentials a call should use: the context's, unless its access token expires
     * within the skew, then refreshed ones. Reads nothing for accounts of other methods or
     * tokens far from expiry.
     */
    const fresh = (context: AccountContext, recorder?: CallRecorder): Effect.Effect<Credentials, TokenRefreshError> =>
      Effect.gen(function*() {
        if (!refreshable(context)) return context.credentials
        const isExpiring = expiring(yield* Clock.currentTimeMillis)
        if (!isExpiring(context.credentials)) return context.credentials
        return yield* refreshIf(context, isExpiring, recorder)
      })

    /**
     * New credentials after the provider refused `rejectedAccessToken` (401): the stored ones
     * when they already carry another token, else refreshed ones.
     */
    const afterRejection = (
      context: AccountContext,
      rejectedAccessToken: string,
      recorder?: CallRecorder
    ): Effect.Effect<Credentials, TokenRefreshError> =>
      refreshIf(context, (stored) => stored.accessToken === rejectedAccessToken, recorder)

    return { refreshable, fresh, afterRejection } as const
  }),
  dependencies: [
    RefreshLeaseRepo.Default,
    CredentialCipher.Default,
    ProfileSetup.Default,
    ProviderHttp.Default,
    ServerInstance.Default
  ]
}) {}
