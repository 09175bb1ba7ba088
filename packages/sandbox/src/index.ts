import { generateAts, ID_BASE, type AtsState } from "./ats/data.js"
import { attachLargeDocument, type LargeDocument, type LargeDocumentOptions } from "./ats/largeDocument.js"
import { atsNotFound, atsRoutes } from "./ats/server.js"
import { Clock, type ClockMode } from "./clock.js"
import { FaultRegistry, type FaultPlan, type RegisteredFault } from "./faults.js"
import { FileStore } from "./files.js"
import { generateHris, type HrisState } from "./hris/data.js"
import { hrisNotFound, hrisRoutes } from "./hris/server.js"
import { HttpError } from "./http/httpError.js"
import { startProviderServer, type ProviderServer } from "./http/providerServer.js"
import { RequestLog, type SeenRequest } from "./http/requestLog.js"
import { sendJson } from "./http/responses.js"
import type { Provider, Shared } from "./http/shared.js"
import { generateLms, type LmsState } from "./lms/data.js"
import { lmsNotFound, lmsRoutes } from "./lms/server.js"
import type { LookAlikeInfo, LookAlikeProvider } from "./lookAlikes/LookAlike.js"
import { LOOK_ALIKES } from "./lookAlikes/registry.js"
import { mcpHandler, mcpToken } from "./mcp/server.js"
import { consentOverHttp } from "./oauth/consentOverHttp.js"
import { generateLever, oauthAdminRoutes, oauthLogBody, oauthNotFound, oauthRoutes, OAuthState, type LeverState } from "./oauth/server.js"
import { rngFor } from "./prng.js"
import { route } from "./router.js"

export type { LargeDocument, LargeDocumentOptions } from "./ats/largeDocument.js"
export type { FaultKind, FaultMatch, FaultPlan, RegisteredFault } from "./faults.js"
export { FAULT_KINDS } from "./faults.js"
export type { SeenRequest } from "./http/requestLog.js"
export type { LookAlike, LookAlikeInfo, LookAlikeProvider } from "./lookAlikes/LookAlike.js"
export { LOOK_ALIKE_PROVIDERS } from "./lookAlikes/LookAlike.js"
export { LOOK_ALIKES } from "./lookAlikes/registry.js"
export type { Provider } from "./http/shared.js"
export { DATA_START, SANDBOX_NOW } from "./clock.js"
export { MCP_TOOLS, sandboxWeather } from "./mcp/server.js"
export { optionsFromEnv, SANDBOX_PORT_VARIABLES } from "./optionsFromEnv.js"
export {
  LEVER_STAGE_TEXT,
  LEVER_STAGES,
  OAUTH_SCOPES,
  s256,
  type LeverApplication,
  type LeverArchiveReason,
  type LeverOpportunity,
  type LeverPosting,
  type TokenSet
} from "./oauth/server.js"

export interface SandboxCounts {
  /** ATS applications (default 260). */
  readonly applications?: number
  /** ATS candidates (default 120); every candidate gets at least one application while applications ≥ candidates. */
  readonly candidates?: number
  /** ATS jobs (default 8), 6 stages each. */
  readonly jobs?: number
  /** ATS (Greenhouse) users: recruiters, interviewers (default 15). */
  readonly atsUsers?: number
  /** HRIS employees (default 40). */
  readonly employees?: number
  /** LMS users (default 60). */
  readonly users?: number
  /** LMS courses (default 20). */
  readonly courses?: number
  /** OAuth provider (Lever look-alike) opportunities (default 60). */
  readonly opportunities?: number
  /** OAuth provider (Lever look-alike) postings (default 8). */
  readonly postings?: number
}

export interface SandboxOAuthOptions {
  /**
   * Redirect URIs registered for the client, matched exactly. Default: none registered, and any
   * http://127.0.0.1 or http://localhost URI (any port and path) is accepted, for local tests.
   */
  readonly redirectUris?: ReadonlyArray<string>
  /** Access-token lifetime on the sandbox clock (default 3600; see `Sandbox.clock.advance`). */
  readonly accessTokenTtlSeconds?: number
  /** Authorization requests must carry an S256 code_challenge (default true). */
  readonly requirePkce?: boolean
  /** Override the generated client credentials. */
  readonly clientId?: string
  readonly clientSecret?: string
  /** The application named on the consent page (default "Switchyard"). */
  readonly appName?: string
}

export interface SandboxOptions {
  /** Same seed, same data (default 42). */
  readonly seed?: number
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string
  /** Fixed ports; 0 or absent = an ephemeral port. */
  readonly ports?: {
    readonly ats?: number
    readonly hris?: number
    readonly lms?: number
    readonly mcp?: number
    readonly oauth?: number
    /** The look-alikes' ports, by provider. */
    readonly lookAlikes?: Partial<Record<LookAlikeProvider, number>>
  }
  readonly counts?: SandboxCounts
  /** Override the generated credentials. */
  readonly apiKeys?: { readonly ats?: string; readonly hris?: string; readonly lms?: string; readonly mcpToken?: string }
  /** Override a look-alike's generated credentials (by provider; see `LookAlike.credentials`). */
  readonly lookAlikeCredentials?: Partial<Record<LookAlikeProvider, Readonly<Record<string, string>>>>
  /** BambooHR company domain in `/api/gateway.php/{companyDomain}/v1` (default "sandbox"). */
  readonly companyDomain?: string
  /** "logical" (default): writes are stamped from 2025-01-01T00:00:00Z on, +1 s per write; "wall": real time. */
  readonly clock?: ClockMode
  /** ATS writes need an On-Behalf-Of header naming a Greenhouse user, as in Greenhouse (default true). */
  readonly requireOnBehalfOf?: boolean
  /** The OAuth2 provider (Lever look-alike recruiting API). */
  readonly oauth?: SandboxOAuthOptions
}

export interface Sandbox {
  readonly seed: number
  readonly counts: Required<SandboxCounts>
  /** Greenhouse Harvest v1 look-alike. `url` is the origin; `baseUrl` = `${url}/v1`. */
  readonly ats: { readonly url: string; readonly baseUrl: string; readonly apiKey: string; readonly onBehalfOf: number }
  /** BambooHR look-alike. `baseUrl` = `${url}/api/gateway.php/${companyDomain}/v1`. */
  readonly hris: { readonly url: string; readonly baseUrl: string; readonly apiKey: string; readonly companyDomain: string }
  /** TalentLMS v1 look-alike. `baseUrl` = `${url}/api/v1`. */
  readonly lms: { readonly url: string; readonly baseUrl: string; readonly apiKey: string }
  /** MCP over Streamable HTTP: `url` (open) and `protectedUrl` (Bearer token) are the full endpoints. */
  readonly mcp: { readonly url: string; readonly protectedUrl: string; readonly token: string; readonly origin: string }
  /**
   * OAuth2 provider with a Lever-v1-shaped recruiting API: `url` is the origin, `baseUrl` =
   * `${url}/v1`, `authorizeUrl` / `tokenUrl` the authorization server's endpoints (the consent page
   * is also at `${url}/authorize`, Lever's path) and the one registered client. `performAs` is a
   * Lever user id writes may be made as (`?perform_as=`). `tokenRequests()` counts token-endpoint
   * calls by grant_type (failed ones too); `revoke` revokes grants (then refresh answers
   * invalid_grant) and returns how many.
   */
  readonly oauth: {
    readonly url: string
    readonly baseUrl: string
    readonly authorizeUrl: string
    readonly tokenUrl: string
    readonly clientId: string
    readonly clientSecret: string
    readonly performAs: string
    tokenRequests(): Record<string, number>
    clearTokenRequests(): void
    revoke(target: { readonly refreshToken?: string; readonly accessToken?: string; readonly clientId?: string }): number
    /** Presses Allow or Deny on the consent page of `authorizationUrl` over HTTP; the redirect's URL (not followed). */
    consent(authorizationUrl: string, button: "Allow" | "Deny"): Promise<URL>
  }
  /**
   * The look-alikes of `LOOK_ALIKES` (Ashby, Workable, ...), by provider: origin, API base URL and
   * credentials. One not yet built is absent.
   */
  readonly lookAlikes: Readonly<Partial<Record<LookAlikeProvider, LookAlikeInfo>>>
  /** The sandbox clock (write stamps, token expiry). `advance` moves it forward without a write; `reset` moves it back. */
  readonly clock: { readonly mode: ClockMode; now(): number; advance(ms: number): number }
  /** Stops all servers (open connections, including held "timeout" requests, are dropped). */
  close(): Promise<void>
  /** Restores the data to the seed (faults and the request log are kept). */
  reset(): void
  /**
   * Attaches a large generated document to an ATS application (until `reset`): deterministic
   * bytes made chunk by chunk on each download, never held in memory.
   */
  addLargeDocument(options: LargeDocumentOptions): LargeDocument
  readonly faults: {
    add(plan: FaultPlan | ReadonlyArray<FaultPlan>): Array<RegisteredFault>
    remove(id: string): boolean
    clear(): void
    list(): Array<RegisteredFault>
  }
  /** Requests seen, oldest first; all providers when none is given. */
  requests(provider?: Provider): Array<SeenRequest>
  clearRequests(): void
}

export const DEFAULT_SEED = 42
export const DEFAULT_COUNTS: Required<SandboxCounts> = {
  applications: 260,
  candidates: 120,
  jobs: 8,
  atsUsers: 15,
  employees: 40,
  users: 60,
  courses: 20,
  opportunities: 60,
  postings: 8
}

interface World {
  files: FileStore
  ats: AtsState
  hris: HrisState
  lms: LmsState
  lever: LeverState
  /** Each look-alike's data, by provider. */
  lookAlikes: Map<LookAlikeProvider, unknown>
}

const generate = (seed: number, counts: Required<SandboxCounts>): World => {
  const files = new FileStore()
  return {
    files,
    ats: generateAts(seed, { applications: counts.applications, candidates: counts.candidates, jobs: counts.jobs, users: counts.atsUsers }, files),
    hris: generateHris(seed, counts.employees, files),
    lms: generateLms(seed, { users: counts.users, courses: counts.courses }),
    lever: generateLever(seed, { opportunities: counts.opportunities, postings: counts.postings }),
    lookAlikes: new Map(LOOK_ALIKES.map((lookAlike) => [lookAlike.provider, lookAlike.generate(seed, files)]))
  }
}

const oauthUrls = (url: string): { url: string; baseUrl: string; authorizeUrl: string; tokenUrl: string } => ({
  url,
  baseUrl: `${url}/v1`,
  authorizeUrl: `${url}/oauth/authorize`,
  tokenUrl: `${url}/oauth/token`
})

export const startSandbox = async (options: SandboxOptions = {}): Promise<Sandbox> => {
  const seed = options.seed ?? DEFAULT_SEED
  const counts: Required<SandboxCounts> = { ...DEFAULT_COUNTS, ...options.counts }
  for (const [key, value] of Object.entries(counts)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`counts.${key} must be a non-negative integer`)
  }
  const host = options.host ?? "127.0.0.1"
  const companyDomain = options.companyDomain ?? "sandbox"
  const keys = {
    ats: options.apiKeys?.ats ?? rngFor(seed, "ats-api-key").hex(32),
    hris: options.apiKeys?.hris ?? rngFor(seed, "hris-api-key").hex(40),
    lms: options.apiKeys?.lms ?? rngFor(seed, "lms-api-key").hex(30),
    mcp: options.apiKeys?.mcpToken ?? mcpToken(seed)
  }
  const clock = new Clock(options.clock ?? "logical")
  const ttl = options.oauth?.accessTokenTtlSeconds ?? 3600
  if (!Number.isInteger(ttl) || ttl < 1) throw new Error("oauth.accessTokenTtlSeconds must be a positive integer")
  // Grants and tokens outlive `reset` (which restores data, not sessions); revoke them through the admin API.
  const oauth = new OAuthState(
    {
      clientId: options.oauth?.clientId ?? `sandbox-${rngFor(seed, "oauth-client-id").hex(16)}`,
      clientSecret: options.oauth?.clientSecret ?? rngFor(seed, "oauth-client-secret").hex(48),
      name: options.oauth?.appName ?? "Switchyard",
      redirectUris: options.oauth?.redirectUris
    },
    clock,
    ttl
  )
  let world = generate(seed, counts)
  const faults = new FaultRegistry()
  const log = new RequestLog()
  const servers: Partial<Record<Provider, ProviderServer>> = {}
  const lookAlikeCredentials = new Map(LOOK_ALIKES.map((lookAlike) => [
    lookAlike.provider,
    { ...lookAlike.credentials(seed), ...options.lookAlikeCredentials?.[lookAlike.provider] }
  ]))
  const lookAlikeInfo = (): Partial<Record<LookAlikeProvider, LookAlikeInfo>> =>
    Object.fromEntries(LOOK_ALIKES.flatMap((lookAlike) => {
      const server = servers[lookAlike.provider]
      return server === undefined
        ? []
        : [[lookAlike.provider, { url: server.url, baseUrl: lookAlike.baseUrl(server.url), credentials: lookAlikeCredentials.get(lookAlike.provider)! }]]
    }))

  const reset = (): void => {
    world = generate(seed, counts)
    clock.reset()
  }

  const info = (): Record<string, unknown> => ({
    seed,
    counts,
    clock: clock.mode,
    ats: servers.ats && { url: servers.ats.url, baseUrl: `${servers.ats.url}/v1`, apiKey: keys.ats, onBehalfOf: ID_BASE.user },
    hris: servers.hris && { url: servers.hris.url, baseUrl: `${servers.hris.url}/api/gateway.php/${companyDomain}/v1`, apiKey: keys.hris, companyDomain },
    lms: servers.lms && { url: servers.lms.url, baseUrl: `${servers.lms.url}/api/v1`, apiKey: keys.lms },
    mcp: servers.mcp && { url: `${servers.mcp.url}/mcp`, protectedUrl: `${servers.mcp.url}/mcp-protected`, token: keys.mcp },
    oauth: servers.oauth && { ...oauthUrls(servers.oauth.url), clientId: oauth.client.clientId, performAs: world.lever.users[0] },
    lookAlikes: lookAlikeInfo()
  })

  const clockAdmin = [
    route("GET", "/_sandbox/clock", (ctx) => sendJson(ctx.res, 200, { mode: clock.mode, now: new Date(clock.now()).toISOString() })),
    route("POST", "/_sandbox/clock", (ctx) => {
      const body = ctx.body() as { seconds?: unknown; ms?: unknown }
      const ms = typeof body.ms === "number" ? body.ms : typeof body.seconds === "number" ? body.seconds * 1000 : NaN
      if (!Number.isFinite(ms) || ms < 0) throw new HttpError(400, { message: 'Give {"seconds": n} or {"ms": n} (n ≥ 0) to move the clock forward' })
      sendJson(ctx.res, 200, { mode: clock.mode, now: new Date(clock.advance(ms)).toISOString() })
    })
  ]
  const shared: Shared = { faults, log, reset, info, adminExtras: [...clockAdmin, ...oauthAdminRoutes(oauth)] }

  try {
    servers.ats = await startProviderServer({
      provider: "ats",
      shared,
      host,
      port: options.ports?.ats ?? 0,
      routes: atsRoutes({ apiKey: keys.ats, requireOnBehalfOf: options.requireOnBehalfOf ?? true, state: () => world.ats, files: () => world.files, clock }),
      notFound: atsNotFound
    })
    servers.hris = await startProviderServer({
      provider: "hris",
      shared,
      host,
      port: options.ports?.hris ?? 0,
      routes: hrisRoutes({ apiKey: keys.hris, companyDomain, state: () => world.hris, files: () => world.files, clock }),
      notFound: hrisNotFound
    })
    servers.lms = await startProviderServer({
      provider: "lms",
      shared,
      host,
      port: options.ports?.lms ?? 0,
      routes: lmsRoutes({ apiKey: keys.lms, domain: `${companyDomain}.talentlms.example`, state: () => world.lms, clock }),
      notFound: lmsNotFound
    })
    const atsOrigin = servers.ats.url
    servers.mcp = await startProviderServer({
      provider: "mcp",
      shared,
      host,
      port: options.ports?.mcp ?? 0,
      routes: [],
      notFound: (ctx) => sendJson(ctx.res, 404, { error: "not_found", message: "MCP endpoints: POST /mcp, POST /mcp-protected" }),
      raw: mcpHandler({ token: keys.mcp, seed, ats: () => world.ats, atsOrigin: () => atsOrigin })
    })
    servers.oauth = await startProviderServer({
      provider: "oauth",
      shared,
      host,
      port: options.ports?.oauth ?? 0,
      routes: oauthRoutes({ state: oauth, requirePkce: options.oauth?.requirePkce ?? true, data: () => world.lever, clock }),
      notFound: oauthNotFound,
      logBody: oauthLogBody
    })
    for (const lookAlike of LOOK_ALIKES) {
      servers[lookAlike.provider] = await startProviderServer({
        provider: lookAlike.provider,
        shared,
        host,
        port: options.ports?.lookAlikes?.[lookAlike.provider] ?? 0,
        routes: lookAlike.routes({
          state: () => world.lookAlikes.get(lookAlike.provider),
          files: () => world.files,
          clock,
          credentials: lookAlikeCredentials.get(lookAlike.provider)!
        }),
        notFound: lookAlike.notFound,
        ...(lookAlike.onError === undefined ? {} : { onError: lookAlike.onError }),
        ...(lookAlike.logBody === undefined ? {} : { logBody: lookAlike.logBody })
      })
    }
  } catch (e) {
    await Promise.all(Object.values(servers).map((s) => s.close()))
    throw e
  }

  const ats = servers.ats
  const hris = servers.hris
  const lms = servers.lms
  const mcp = servers.mcp
  const oauthServer = servers.oauth
  const lookAlikeServers = LOOK_ALIKES.map((lookAlike) => servers[lookAlike.provider]!)
  let closed = false
  return {
    seed,
    counts,
    ats: { url: ats.url, baseUrl: `${ats.url}/v1`, apiKey: keys.ats, onBehalfOf: ID_BASE.user },
    hris: { url: hris.url, baseUrl: `${hris.url}/api/gateway.php/${companyDomain}/v1`, apiKey: keys.hris, companyDomain },
    lms: { url: lms.url, baseUrl: `${lms.url}/api/v1`, apiKey: keys.lms },
    mcp: { url: `${mcp.url}/mcp`, protectedUrl: `${mcp.url}/mcp-protected`, token: keys.mcp, origin: mcp.url },
    oauth: {
      ...oauthUrls(oauthServer.url),
      clientId: oauth.client.clientId,
      clientSecret: oauth.client.clientSecret,
      performAs: world.lever.users[0] as string,
      tokenRequests: () => oauth.tokenRequests(),
      clearTokenRequests: () => oauth.clearTokenRequests(),
      revoke: (target) => oauth.revoke(target),
      consent: (authorizationUrl, button) => consentOverHttp(oauthServer.url, authorizationUrl, button)
    },
    lookAlikes: lookAlikeInfo(),
    clock: { mode: clock.mode, now: () => clock.now(), advance: (ms) => clock.advance(ms) },
    close: async () => {
      if (closed) return
      closed = true
      await Promise.all([ats.close(), hris.close(), lms.close(), mcp.close(), oauthServer.close(), ...lookAlikeServers.map((server) => server.close())])
    },
    reset,
    addLargeDocument: (options) => attachLargeDocument(world.ats, world.files, ats.url, options),
    faults: {
      add: (plan) => faults.add(plan),
      remove: (id) => faults.remove(id),
      clear: () => faults.clear(),
      list: () => faults.list()
    },
    requests: (provider) => log.list(provider),
    clearRequests: () => log.clear()
  }
}
