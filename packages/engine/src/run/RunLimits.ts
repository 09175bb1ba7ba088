import type { Effect } from "effect"
import type { ActionError, ForeignFailure } from "../RunErrors.js"
import type { TokenCache } from "../TokenCache.js"

/* What a caller gives a run besides the connector and the inputs, and what bounds it. */

export interface RunLimits {
  /** Deadline of one step (of each page, for `paginated_request`). */
  readonly stepTimeoutMs: number
  /** Deadline of the whole run, authentication included. */
  readonly actionTimeoutMs: number
  /** Pages a `paginated_request` follows at most (a step's own `maxPages` may lower it). */
  readonly maxPages: number
  /** Records a step may collect or map, and a list result may hold. */
  readonly maxRecords: number
  /** Largest text or binary response body accepted (JSON bodies are the transport's to bound). */
  readonly maxResponseBytes: number
  /** Longest string an interpolation or JEXL expression may produce. */
  readonly maxExpressionOutputChars: number
}

export const defaultRunLimits: RunLimits = {
  stepTimeoutMs: 30_000,
  actionTimeoutMs: 120_000,
  maxPages: 50,
  maxRecords: 100_000,
  maxResponseBytes: 20 * 1024 * 1024,
  maxExpressionOutputChars: 1_000_000
}

/** The defaults, each replaced by the caller's value when that is a positive finite number. */
export const resolveLimits = (limits: Partial<RunLimits> | undefined): RunLimits => {
  if (limits === undefined) return defaultRunLimits
  const out = { ...defaultRunLimits }
  for (const key of Object.keys(defaultRunLimits) as Array<keyof RunLimits>) {
    const value = limits[key]
    if (typeof value === "number" && Number.isFinite(value) && value > 0) out[key] = value
  }
  return out
}

/**
 * `E`: what the caller's hooks fail with of their own (see `ForeignFailure`); `runAction` and
 * `sendProxyRequest` fail with it as it is, beside the run's `ActionError`s.
 */
export interface RunContext<out E = never> {
  /** The linked account's credentials (`$.credentials.*`). */
  readonly credentials: Readonly<Record<string, unknown>>
  /** Account or profile settings (`$.settings.*`). */
  readonly settings?: Readonly<Record<string, unknown>> | undefined
  readonly limits?: Partial<RunLimits> | undefined
  /** Replaces the connector's `baseUrl` (e.g. the account's `base_url` setting); used as is. */
  readonly baseUrl?: string | undefined
  /** Replace the URLs of the connector's named `servers` (e.g. the account's `<name>_base_url` settings); used as is. */
  readonly servers?: Readonly<Record<string, string>> | undefined
  /**
   * Replaces the token URL of an OAuth2 client-credentials method (e.g. the account's `token_url`
   * setting: a provider's sandbox token server, or a contract check's mock); used as is.
   */
  readonly tokenUrl?: string | undefined
  /** Authentication method by name; default the connector's first. */
  readonly authMethod?: string | undefined
  /** Where client-credentials tokens are cached; default one cache per process. */
  readonly tokenCache?: TokenCache | undefined
  /**
   * For stored OAuth2 tokens: called when the provider answers 401 to a request carrying the
   * account's access token; answers the new access token. Called at most once per run (runs
   * that meet the 401 at the same time share the call); the request is then sent once more
   * with the new token, whose 401 is the provider's answer. Its failure is the run's failure:
   * an `ActionError` as the run's own, a `ForeignFailure` as the caller's (the run fails with
   * what it carries). Without it a 401 is the provider's answer.
   */
  readonly refreshAccessToken?: ((rejectedAccessToken: string) => Effect.Effect<string, ActionError | ForeignFailure<E>>) | undefined
  /**
   * Run before each provider request the run sends, and before a client-credentials token is
   * looked up (the lookup may fetch one, shared with other runs, which must not fail with this
   * run's hook): its failure ends the run there, whatever the step (`ignoreError` too), and the
   * run fails with it as it is. E.g. the server stops a keyed write whose claim another process
   * took over.
   */
  readonly beforeEachRequest?: Effect.Effect<void, E> | undefined
  /**
   * The run's requests carry none of the connector's authentication: for a refresh action,
   * which authenticates itself with the client credentials and refresh token it is given.
   */
  readonly withoutAuthentication?: boolean | undefined
  /**
   * How `download_file` yields the file: `bytes` (default) reads it whole into a
   * `Uint8Array`; `stream` passes a `FileDownload` through without reading it, for callers
   * that send the bytes on as they arrive.
   */
  readonly downloads?: "bytes" | "stream" | undefined
}

export interface ActionOutput {
  readonly data: unknown
  /** The provider cursor for the next page, when there is one. */
  readonly next: unknown | undefined
}
