import { createHash, randomBytes } from "node:crypto"
import type { Clock } from "../clock.js"

/** The OAuth provider's authorization server state: the client, pending consents, codes, grants and tokens. */

/**
 * Lever's scopes for the endpoints the sandbox has (a write scope also reads, as in Lever);
 * `offline_access` is accepted (a refresh token is always issued).
 */
export const OAUTH_SCOPES = [
  "opportunities:read:admin",
  "opportunities:write:admin",
  "applications:read:admin",
  "archive_reasons:read:admin",
  "postings:read:admin",
  "stages:read:admin",
  "users:read:admin",
  "notes:read:admin",
  "notes:write:admin",
  "offers:read:admin",
  "interviews:read:admin",
  "feedback:read:admin",
  "files:read:admin",
  "offline_access"
] as const

export interface OAuthClient {
  readonly clientId: string
  readonly clientSecret: string
  readonly name: string
  /** Exact redirect URIs; undefined = any http://127.0.0.1 or http://localhost URI (any port and path), for local tests. */
  readonly redirectUris: ReadonlyArray<string> | undefined
}

/** What the authorize endpoint validated, kept until the user allows or denies on the consent page. */
export interface AuthorizationRequest {
  readonly id: string
  readonly clientId: string
  readonly redirectUri: string
  readonly state: string | undefined
  readonly scope: string
  readonly codeChallenge: string | undefined
  readonly expiresAt: number
}

interface AuthorizationCode {
  readonly clientId: string
  readonly redirectUri: string
  readonly scope: string
  readonly codeChallenge: string | undefined
  readonly expiresAt: number
  used: boolean
  /** The grant its exchange made: revoked if the code is presented again (RFC 6749 §4.1.2). */
  grantId?: string
}

interface Grant {
  readonly id: string
  readonly clientId: string
  readonly scope: string
  revoked: boolean
  /** The one refresh token that is still good. */
  refreshToken: string
}

export interface AccessToken {
  readonly grantId: string
  readonly scope: string
  readonly expiresAt: number
}

export interface TokenSet {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
}

/** Why a token request failed, as RFC 6749 §5.2 names it. */
export class OAuthError extends Error {
  constructor(
    readonly error: "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope",
    readonly description: string
  ) {
    super(description)
  }
}

/** base64url(SHA-256(verifier)), the S256 code challenge (RFC 7636 §4.2). */
export const s256 = (verifier: string): string => createHash("sha256").update(verifier, "ascii").digest("base64url")

/** Tokens are random (not seeded): a token of one sandbox must never work on another. */
const token = (prefix: string): string => `${prefix}_${randomBytes(24).toString("base64url")}`

const CODE_TTL_MS = 60_000
const CONSENT_TTL_MS = 10 * 60_000

export class OAuthState {
  private readonly pending = new Map<string, AuthorizationRequest>()
  private readonly codes = new Map<string, AuthorizationCode>()
  private readonly grants = new Map<string, Grant>()
  /** Every refresh token ever issued → its grant (rotated ones stay, to detect reuse). */
  private readonly refreshTokens = new Map<string, string>()
  private readonly accessTokens = new Map<string, AccessToken>()
  private readonly calls = new Map<string, number>()
  private grantSeq = 0

  constructor(
    readonly client: OAuthClient,
    private readonly clock: Clock,
    readonly accessTokenTtlSeconds: number
  ) {}

  redirectUriAllowed(uri: string): boolean {
    if (this.client.redirectUris !== undefined) return this.client.redirectUris.includes(uri)
    let url: URL
    try {
      url = new URL(uri)
    } catch {
      return false
    }
    return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost") && url.hash === ""
  }

  addAuthorizationRequest(request: Omit<AuthorizationRequest, "id" | "expiresAt">): AuthorizationRequest {
    const full = { ...request, id: token("consent"), expiresAt: this.clock.now() + CONSENT_TTL_MS }
    this.pending.set(full.id, full)
    return full
  }

  /** The pending request (single use), or undefined when unknown or expired. */
  takeAuthorizationRequest(id: string): AuthorizationRequest | undefined {
    const request = this.pending.get(id)
    this.pending.delete(id)
    return request !== undefined && request.expiresAt > this.clock.now() ? request : undefined
  }

  issueCode(request: AuthorizationRequest): string {
    const code = token("code")
    this.codes.set(code, {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      codeChallenge: request.codeChallenge,
      expiresAt: this.clock.now() + CODE_TTL_MS,
      used: false
    })
    return code
  }

  countCall(grantType: string): void {
    this.calls.set(grantType, (this.calls.get(grantType) ?? 0) + 1)
  }

  /** Token endpoint calls by `grant_type` (as sent; "" when missing), failed ones included. */
  tokenRequests(): Record<string, number> {
    return Object.fromEntries(this.calls)
  }

  clearTokenRequests(): void {
    this.calls.clear()
  }

  exchangeCode(clientId: string, code: string, redirectUri: string | undefined, verifier: string | undefined): TokenSet {
    const entry = this.codes.get(code)
    if (entry === undefined) throw new OAuthError("invalid_grant", "Unknown authorization code")
    if (entry.used) {
      if (entry.grantId !== undefined) this.revokeGrant(entry.grantId)
      throw new OAuthError("invalid_grant", "Authorization code already used; the tokens it gave are revoked")
    }
    if (entry.expiresAt <= this.clock.now()) throw new OAuthError("invalid_grant", "Authorization code expired")
    if (entry.clientId !== clientId) throw new OAuthError("invalid_grant", "Authorization code was issued to another client")
    if (redirectUri !== entry.redirectUri) throw new OAuthError("invalid_grant", "redirect_uri does not match the authorization request")
    if (entry.codeChallenge !== undefined) {
      if (verifier === undefined) throw new OAuthError("invalid_grant", "code_verifier is required (PKCE)")
      if (s256(verifier) !== entry.codeChallenge) throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
    } else if (verifier !== undefined) throw new OAuthError("invalid_grant", "code_verifier sent but the authorization request had no code_challenge")
    entry.used = true
    const grant: Grant = { id: `grant_${++this.grantSeq}`, clientId, scope: entry.scope, revoked: false, refreshToken: "" }
    this.grants.set(grant.id, grant)
    entry.grantId = grant.id
    return this.issueTokens(grant, grant.scope)
  }

  refresh(clientId: string, refreshToken: string, scope: string | undefined): TokenSet {
    const grantId = this.refreshTokens.get(refreshToken)
    const grant = grantId === undefined ? undefined : this.grants.get(grantId)
    if (grant === undefined) throw new OAuthError("invalid_grant", "Unknown refresh token")
    if (grant.clientId !== clientId) throw new OAuthError("invalid_grant", "Refresh token was issued to another client")
    if (grant.revoked) throw new OAuthError("invalid_grant", "The grant has been revoked")
    if (grant.refreshToken !== refreshToken) {
      // A rotated refresh token came back: someone holds a copy, so the whole grant goes (as Auth0 and Okta do).
      this.revokeGrant(grant.id)
      throw new OAuthError("invalid_grant", "Refresh token was already used; the grant is revoked")
    }
    let granted = grant.scope
    if (scope !== undefined) {
      const have = new Set(grant.scope.split(" "))
      const asked = scope.split(" ").filter((s) => s !== "")
      if (asked.some((s) => !have.has(s))) throw new OAuthError("invalid_scope", "Requested scope exceeds the granted scope")
      granted = asked.join(" ")
    }
    return this.issueTokens(grant, granted)
  }

  private issueTokens(grant: Grant, scope: string): TokenSet {
    const access = token("lat")
    const refresh = token("lrt")
    this.accessTokens.set(access, { grantId: grant.id, scope, expiresAt: this.clock.now() + this.accessTokenTtlSeconds * 1000 })
    this.refreshTokens.set(refresh, grant.id)
    grant.refreshToken = refresh
    return { access_token: access, token_type: "Bearer", expires_in: this.accessTokenTtlSeconds, refresh_token: refresh, scope }
  }

  /** The access token's record while it is good (known, unexpired, grant not revoked). */
  accessToken(value: string): AccessToken | undefined {
    const entry = this.accessTokens.get(value)
    if (entry === undefined || entry.expiresAt <= this.clock.now()) return undefined
    return this.grants.get(entry.grantId)?.revoked === false ? entry : undefined
  }

  private revokeGrant(id: string): number {
    const grant = this.grants.get(id)
    if (grant === undefined || grant.revoked) return 0
    grant.revoked = true
    return 1
  }

  /** Revokes the grant behind a refresh or access token, or every grant of a client; returns how many were revoked. */
  revoke(target: { readonly refreshToken?: string; readonly accessToken?: string; readonly clientId?: string }): number {
    let count = 0
    if (target.refreshToken !== undefined) {
      const id = this.refreshTokens.get(target.refreshToken)
      if (id !== undefined) count += this.revokeGrant(id)
    }
    if (target.accessToken !== undefined) {
      const id = this.accessTokens.get(target.accessToken)?.grantId
      if (id !== undefined) count += this.revokeGrant(id)
    }
    if (target.clientId !== undefined) {
      for (const grant of this.grants.values()) if (grant.clientId === target.clientId) count += this.revokeGrant(grant.id)
    }
    return count
  }

  summary(): Record<string, unknown> {
    const grants = [...this.grants.values()]
    return {
      clientId: this.client.clientId,
      accessTokenTtlSeconds: this.accessTokenTtlSeconds,
      grants: { active: grants.filter((g) => !g.revoked).length, revoked: grants.filter((g) => g.revoked).length },
      tokenRequests: this.tokenRequests()
    }
  }
}
