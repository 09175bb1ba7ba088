import { type Context, Duration, Effect, Either, Stream } from "effect"
import { validateInputs } from "./actionInputs.js"
import {
  type ActionPlan,
  type AuthPlan,
  type BodyReader,
  type ConnectorPlan,
  type HttpPlan,
  planAction,
  planConnector,
  type StepKind,
  type StepPlan
} from "./actionPlan.js"
import { coercionFor } from "./coerce.js"
import { credentialSecrets } from "./credentialSecrets.js"
import { ContextScope, type Evaluator, type ExpressionBounds, ExpressionError, isTruthy, RecordScope, ValueScope } from "./evaluate.js"
import { mapRange, mapRecord } from "./mapping.js"
import { mcpInitializeParams, parseMcpResponse } from "./mcp.js"
import type { ParsedConnector } from "./parseConnector.js"
import { FileDownload } from "./FileDownload.js"
import {
  type ProviderRequest,
  type ProviderResponse,
  ProviderTransport,
  ProviderTransportError,
  StreamedBody
} from "./ProviderTransport.js"
import { redactHeaders, redactText, redactValue, secretForms } from "./redact.js"
import {
  type ActionError,
  ActionDefinitionError,
  ActionInputError,
  ActionLimitError,
  CustomProviderError,
  ProviderHttpError
} from "./RunErrors.js"
import { defaultTokenCache, type FetchedToken, TokenCache } from "./TokenCache.js"

/*
 * The action runner: validates inputs, runs the steps in order against the provider
 * transport, and evaluates the result. Every run is bounded (step and action deadlines,
 * pages, records, response and expression sizes) and fails with a tagged `ActionError`
 * whose text carries no credential value.
 */

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

export interface RunContext {
  /** The linked account's credentials (`$.credentials.*`). */
  readonly credentials: Readonly<Record<string, unknown>>
  /** Account or profile settings (`$.settings.*`). */
  readonly settings?: Readonly<Record<string, unknown>> | undefined
  readonly limits?: Partial<RunLimits> | undefined
  /** Replaces the connector's `baseUrl` (e.g. the account's `base_url` setting); used as is. */
  readonly baseUrl?: string | undefined
  /** Authentication method by name; default the connector's first. */
  readonly authMethod?: string | undefined
  /** Where client-credentials tokens are cached; default one cache per process. */
  readonly tokenCache?: TokenCache | undefined
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

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"])

/** Records mapped between two yields, so a deadline can interrupt a long mapping. */
const MAP_CHUNK = 2_000

type StepOutput = Record<string, unknown>

interface ResolvedAuth {
  readonly headers: Readonly<Record<string, string>>
  readonly query: ReadonlyArray<readonly [string, string]>
  /** Client-credentials cache entry: dropped and fetched again once if the provider answers 401. */
  readonly cacheKey?: string | undefined
}

const noAuth: ResolvedAuth = { headers: {}, query: [] }

interface BuiltRequest {
  readonly method: ProviderRequest["method"]
  readonly url: URL
  readonly headers: Record<string, string>
  readonly body: ProviderRequest["body"]
  readonly responseType?: ProviderRequest["responseType"]
  /** Sent without the connector's authentication (a file on another host, e.g. a pre-signed link). */
  readonly bare?: boolean
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isSuccess = (status: number) => status >= 200 && status < 300

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i

/** Text of a query, header or form value: strings as is, scalars stringified, the rest as JSON. */
const paramText = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" || typeof value === "bigint"
  ? String(value)
  : value instanceof Date
  ? value.toISOString()
  : JSON.stringify(value) ?? ""

const header = (headers: Readonly<Record<string, string>>, name: string): string | undefined => {
  if (headers[name] !== undefined) return headers[name]
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key]
  return undefined
}

const isEmptyCursor = (value: unknown) => value === undefined || value === null || value === "" || value === false

const byteLength = (body: unknown): number | undefined =>
  typeof body === "string" ? Buffer.byteLength(body, "utf8") : body instanceof Uint8Array ? body.byteLength : undefined

const toBytes = (body: unknown): Uint8Array => {
  if (body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  if (typeof body === "string") return new Uint8Array(Buffer.from(body, "utf8"))
  if (body === undefined || body === null) return new Uint8Array(0)
  return new Uint8Array(Buffer.from(JSON.stringify(body), "utf8"))
}

const fileNameOf = (disposition: string | undefined): string | undefined => {
  if (disposition === undefined) return undefined
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)
  if (extended !== null) {
    try {
      return decodeURIComponent(extended[1]!.trim())
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition)
  return plain === null ? undefined : (plain[1] ?? plain[2])?.trim()
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const BASE64_URL = /^[A-Za-z0-9_-]*={0,2}$/

const decodeBase64 = (text: string): Uint8Array | undefined => {
  const stripped = text.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "")
  if (BASE64.test(stripped)) return new Uint8Array(Buffer.from(stripped, "base64"))
  if (BASE64_URL.test(stripped)) return new Uint8Array(Buffer.from(stripped, "base64url"))
  return undefined
}

const readBody = (reader: BodyReader, body: unknown, bounds: ExpressionBounds): unknown => {
  if (reader._tag === "Expression") return reader.evaluate(new ValueScope(body, bounds))
  let current = body
  for (const key of reader.keys) {
    if (!current || !Object.prototype.hasOwnProperty.call(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

class Run {
  readonly steps: Record<string, unknown> = {}
  readonly context: Record<string, unknown>
  readonly scope: ContextScope
  private readonly secrets: Set<string>
  private forms: Array<string> | undefined
  private auth: ResolvedAuth | undefined
  private baseUrl: string | undefined | null = null
  private lastStep: { readonly plan: StepPlan; readonly output: StepOutput } | undefined
  /** The latest 2xx answer: expression failures after it are about the provider's data. */
  private answered: { readonly status: number; readonly url: string } | undefined
  private readonly mcpSessions = new Map<string, string>()
  private mcpId = 0

  constructor(
    readonly parsed: ParsedConnector,
    readonly connector: ConnectorPlan,
    readonly plan: ActionPlan,
    readonly inputs: Record<string, unknown>,
    readonly run: RunContext,
    readonly limits: RunLimits,
    readonly transport: Context.Tag.Service<typeof ProviderTransport>,
    secrets: Set<string>
  ) {
    this.secrets = secrets
    const filter: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(inputs)) if (key.startsWith("filter_")) filter[key.slice(7)] = value
    this.context = {
      inputs,
      credentials: run.credentials,
      settings: run.settings ?? {},
      steps: this.steps,
      filter
    }
    this.scope = new ContextScope(this.context, { maxStringLength: limits.maxExpressionOutputChars })
  }

  get bounds(): ExpressionBounds {
    return this.scope.bounds
  }

  // ---- errors and secrets ---------------------------------------------------------

  addSecret(secret: string): void {
    if (secret.length >= 4 && !this.secrets.has(secret)) {
      this.secrets.add(secret)
      this.forms = undefined
    }
  }

  secretForms(): ReadonlyArray<string> {
    return (this.forms ??= secretForms(this.secrets))
  }

  redactUrl(url: string): string {
    return redactText(url, this.secretForms())
  }

  /** Runs connector-evaluating code; expression failures become tagged errors, bugs stay defects. */
  sync<A>(step: StepPlan | undefined, f: () => A): Effect.Effect<A, ActionError> {
    return Effect.suspend(() => {
      try {
        return Effect.succeed(f())
      } catch (error) {
        return Effect.fail(this.failure(error, step))
      }
    })
  }

  failure(error: unknown, step: StepPlan | undefined): ActionError {
    if (error instanceof ExpressionError) {
      if (error.tooLarge) {
        return new ActionLimitError({ limit: "maxExpressionOutput", message: error.message, stepId: step?.stepId })
      }
      if (this.answered !== undefined) {
        // the provider answered, but with data the connector's expressions cannot read: a
        // provider problem (502), told without the connector's internals
        return new ProviderTransportError({
          reason: "invalid_response",
          message: `${this.parsed.definition.info.key} answered ${this.answered.status} with an answer the connector could not map`,
          url: this.answered.url
        })
      }
      return new ActionDefinitionError({
        message: error.message,
        actionId: this.plan.action.actionId,
        stepId: step?.stepId,
        path: error.path
      })
    }
    if (
      error instanceof ActionDefinitionError || error instanceof ActionInputError || error instanceof ActionLimitError ||
      error instanceof ProviderHttpError || error instanceof CustomProviderError
    ) {
      return error
    }
    throw error
  }

  /** The same error with every message, URL and body redacted. */
  redactError(error: ActionError): ActionError {
    const forms = this.secretForms()
    if (forms.length === 0) return error
    const text = (value: string) => redactText(value, forms)
    switch (error._tag) {
      case "ProviderTransportError":
        return error
      case "ActionInputError":
        return new ActionInputError({
          message: text(error.message),
          issues: error.issues.map((issue) => ({ input: issue.input, message: text(issue.message) }))
        })
      case "ProviderHttpError":
        return new ProviderHttpError({
          message: text(error.message),
          status: error.status,
          url: text(error.url),
          method: error.method,
          body: redactValue(error.body, forms),
          headers: redactHeaders(error.headers, forms),
          stepId: error.stepId
        })
      case "CustomProviderError":
        return new CustomProviderError({
          message: text(error.message),
          targetStatus: error.targetStatus,
          receivedStatus: error.receivedStatus,
          url: text(error.url),
          body: redactValue(error.body, forms),
          stepId: error.stepId
        })
      case "ActionLimitError":
        return new ActionLimitError({ limit: error.limit, stepId: error.stepId, message: text(error.message) })
      case "ActionDefinitionError":
        return new ActionDefinitionError({
          message: text(error.message),
          actionId: error.actionId,
          stepId: error.stepId,
          path: error.path
        })
    }
  }

  // ---- authentication -------------------------------------------------------------

  authPlan(): AuthPlan | ActionDefinitionError {
    const name = this.run.authMethod ?? this.connector.firstAuth
    if (name === undefined) return { _tag: "None", name: undefined }
    const plan = this.connector.auth.get(name)
    if (plan === undefined) {
      return new ActionDefinitionError({
        message: `connector "${this.parsed.definition.info.key}" has no authentication method "${name}"`,
        actionId: this.plan.action.actionId
      })
    }
    return plan
  }

  credentialValue(evaluator: Evaluator, what: string, method: string): string {
    const value = evaluator(this.scope)
    if (value === undefined || value === null || value === "") {
      throw ActionInputError.fromIssues([{
        input: "credentials",
        message: `lack the ${what} of authentication "${method}" (it resolved to nothing)`
      }])
    }
    return paramText(value)
  }

  authorization(): Effect.Effect<ResolvedAuth, ActionError> {
    if (this.auth !== undefined) return Effect.succeed(this.auth)
    return Effect.tap(this.resolveAuth(), (auth) => {
      this.auth = auth
    })
  }

  resolveAuth(): Effect.Effect<ResolvedAuth, ActionError> {
    const plan = this.authPlan()
    if (plan instanceof ActionDefinitionError) return Effect.fail(plan)
    const none: ResolvedAuth = { headers: {}, query: [] }
    switch (plan._tag) {
      case "None":
        return Effect.succeed(none)
      case "Basic":
        return this.sync(undefined, () => {
          const username = this.credentialValue(plan.username, "username", plan.name)
          const password = plan.password(this.scope)
          const token = Buffer.from(`${username}:${password === undefined || password === null ? "" : paramText(password)}`).toString("base64")
          this.addSecret(token)
          return { headers: { authorization: `Basic ${token}` }, query: [] }
        })
      case "Bearer":
        return this.sync(undefined, () => {
          const token = this.credentialValue(plan.token, "token", plan.name)
          this.addSecret(token)
          return { headers: { authorization: /^bearer /i.test(token) ? token : `Bearer ${token}` }, query: [] }
        })
      case "ApiKey":
        return this.sync(undefined, () => {
          const key = this.credentialValue(plan.key, "key name", plan.name)
          const value = this.credentialValue(plan.value, "key", plan.name)
          this.addSecret(value)
          return plan.in === "header"
            ? { headers: { [key.toLowerCase()]: value }, query: [] }
            : { headers: {}, query: [[key, value]] }
        })
      case "StoredToken":
        return this.sync(undefined, () => {
          const credentials = this.run.credentials
          const token = plan.token !== undefined
            ? plan.token(this.scope)
            : credentials.accessToken ?? credentials.access_token
          if (typeof token !== "string" || token === "") {
            throw ActionInputError.fromIssues([{
              input: "credentials.accessToken",
              message: `is missing: authentication "${plan.name}" needs an access token on the account`
            }])
          }
          this.addSecret(token)
          return { headers: { authorization: plan.includeBearer ? `Bearer ${token}` : token }, query: [] }
        })
      case "ClientCredentials":
        return Effect.flatMap(
          this.sync(undefined, () => {
            const tokenUrl = this.credentialValue(plan.tokenUrl, "token URL", plan.name)
            const credentials = this.run.credentials
            const clientId = credentials.clientId ?? credentials.client_id
            const clientSecret = credentials.clientSecret ?? credentials.client_secret
            if (typeof clientId !== "string" || clientId === "" || typeof clientSecret !== "string" || clientSecret === "") {
              throw ActionInputError.fromIssues([{
                input: "credentials",
                message: `lack clientId and clientSecret, which authentication "${plan.name}" (client credentials) needs`
              }])
            }
            return { tokenUrl, clientId, clientSecret }
          }),
          ({ clientId, clientSecret, tokenUrl }) => {
            const cache = this.run.tokenCache ?? defaultTokenCache
            const key = TokenCache.key({ tokenUrl, clientId, clientSecret, scope: plan.scope })
            return Effect.map(
              cache.get(key, this.fetchClientToken(tokenUrl, clientId, clientSecret, plan)),
              (token): ResolvedAuth => {
                this.addSecret(token)
                return { headers: { authorization: plan.includeBearer ? `Bearer ${token}` : token }, query: [], cacheKey: key }
              }
            )
          }
        )
    }
  }

  fetchClientToken(
    tokenUrl: string,
    clientId: string,
    clientSecret: string,
    plan: Extract<AuthPlan, { _tag: "ClientCredentials" }>
  ): Effect.Effect<FetchedToken, ActionError> {
    const form: Record<string, string> = { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }
    if (plan.scope !== undefined && plan.scope !== "") form.scope = plan.scope
    const request: ProviderRequest = {
      method: "POST",
      url: tokenUrl,
      headers: { accept: "application/json" },
      body: { _tag: "Form", value: form },
      secrets: [...this.secrets]
    }
    return this.transport.send(request).pipe(
      Effect.flatMap((response) =>
        this.sync(undefined, (): FetchedToken => {
          let body = response.body
          if (typeof body === "string") {
            const text = body
            try {
              body = JSON.parse(text)
            } catch {
              body = Object.fromEntries(new URLSearchParams(text))
            }
          }
          const token = isRecord(body) ? body.access_token : undefined
          if (!isSuccess(response.status) || typeof token !== "string" || token === "") {
            throw this.httpError(
              undefined,
              "POST",
              tokenUrl,
              response,
              isSuccess(response.status)
                ? `token endpoint answered ${response.status} without an access_token`
                : `token endpoint answered ${response.status}`
            )
          }
          const expiresIn = Number((body as Record<string, unknown>).expires_in)
          return {
            accessToken: token,
            expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : plan.defaultExpiresIn ?? 3600
          }
        })
      ),
      this.stepDeadline(undefined, "fetching the access token")
    )
  }

  // ---- HTTP -----------------------------------------------------------------------

  resolvedBaseUrl(): string | undefined {
    if (this.baseUrl === null) {
      if (this.run.baseUrl !== undefined && this.run.baseUrl !== "") this.baseUrl = this.run.baseUrl
      else if (this.connector.baseUrl !== undefined) {
        const value = this.connector.baseUrl(this.scope)
        this.baseUrl = typeof value === "string" && value !== "" ? value : undefined
      } else this.baseUrl = undefined
    }
    return this.baseUrl
  }

  baseOrigin(): string | undefined {
    const base = this.resolvedBaseUrl()
    if (base === undefined) return undefined
    try {
      return new URL(base).origin
    } catch {
      return undefined
    }
  }

  /** An absolute http(s) URL for `target` (absolute, or relative to the base URL). */
  resolveUrl(target: string, staticOrigin: boolean, step: StepPlan | undefined, foreignOk = false): URL {
    const base = this.resolvedBaseUrl()
    let text: string
    if (ABSOLUTE.test(target)) text = target
    else {
      if (base === undefined) {
        throw new ActionDefinitionError({
          message: `relative URL "${target}" but the connector has no baseUrl`,
          actionId: this.plan.action.actionId,
          stepId: step?.stepId
        })
      }
      const trimmed = base.replace(/\/+$/, "")
      text = target === "" ? trimmed : target.startsWith("/") || target.startsWith("?") ? trimmed + target : `${trimmed}/${target}`
    }
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new ActionDefinitionError({
        message: `not a valid URL: ${this.redactUrl(text)}`,
        actionId: this.plan.action.actionId,
        stepId: step?.stepId
      })
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ActionDefinitionError({
        message: `URL scheme ${url.protocol} is not allowed (http and https only)`,
        actionId: this.plan.action.actionId,
        stepId: step?.stepId
      })
    }
    if (!staticOrigin && !foreignOk && ABSOLUTE.test(target)) this.checkOrigin(url, base, step)
    return url
  }

  checkOrigin(url: URL, base: string | undefined, step: StepPlan | undefined): void {
    let origin: string | undefined
    try {
      origin = base === undefined ? undefined : new URL(base).origin
    } catch {
      origin = undefined
    }
    if (url.origin !== origin) {
      throw new ActionDefinitionError({
        message: `a computed URL points at ${url.origin}, outside the connector's base URL; refusing to send credentials there`,
        actionId: this.plan.action.actionId,
        stepId: step?.stepId
      })
    }
  }

  buildRequest(
    step: StepPlan,
    http: HttpPlan,
    defaults: {
      readonly method: ProviderRequest["method"]
      readonly proxy: boolean
      /** A computed URL may point at another origin; such a request is then sent bare. */
      readonly foreignOk?: boolean
    }
  ): BuiltRequest {
    const scope = this.scope
    const method = http.method === undefined ? defaults.method : paramText(http.method(scope)).toUpperCase()
    if (!METHODS.has(method)) {
      throw new ActionDefinitionError({
        message: `step "${step.stepId}": unsupported HTTP method "${method}"`,
        actionId: this.plan.action.actionId,
        stepId: step.stepId
      })
    }
    let target = http.url === undefined ? "" : paramText(http.url(scope) ?? "")
    let substituted = false
    const query: Array<[string, string]> = []
    const headers: Record<string, string> = {}
    let body: Record<string, unknown> | undefined
    const appendQuery = (name: string, value: unknown) => {
      if (value === undefined || value === null) return
      if (Array.isArray(value)) for (const item of value) appendQuery(name, item)
      else if (isRecord(value)) for (const [key, item] of Object.entries(value)) appendQuery(`${name}[${key}]`, item)
      else query.push([name, paramText(value)])
    }
    for (const arg of http.args) {
      if (arg.condition !== undefined && !isTruthy(arg.condition(scope))) continue
      const value = arg.value(scope)
      if (value === undefined) continue
      switch (arg.in) {
        case "query":
          if (arg.spread && isRecord(value)) for (const [key, item] of Object.entries(value)) appendQuery(key, item)
          else appendQuery(arg.name, value)
          break
        case "headers":
          if (value !== null) headers[arg.name.toLowerCase()] = paramText(value)
          break
        case "body":
          if (arg.spread && isRecord(value)) body = Object.assign(body ?? {}, value)
          else (body ??= {})[arg.name] = value
          break
        case "path": {
          const filled = target.split(`{${arg.name}}`).join(encodeURIComponent(paramText(value)))
          substituted ||= filled !== target
          target = filled
          break
        }
      }
    }
    const url = this.resolveUrl(target, http.staticOrigin, step, defaults.foreignOk === true && method === "GET")
    if (url.origin !== this.baseOrigin() && defaults.foreignOk === true && method === "GET" && !http.staticOrigin) {
      // nothing of the connector's (credentials, headers, query or path arguments) goes to a host it does not name
      const refuse = (why: string) =>
        new ActionDefinitionError({
          message: `step "${step.stepId}": the download link on ${url.origin} ${why}`,
          actionId: this.plan.action.actionId,
          stepId: step.stepId
        })
      if (url.protocol !== "https:") throw refuse("is not https; links to other hosts must be")
      if (substituted) throw refuse("would carry the step's path arguments to another host")
      return { method: "GET", url, headers: {}, body: undefined, bare: true }
    }
    // `proxy` query parameters are meant for the provider's API, not for other hosts
    if (defaults.proxy && isRecord(this.inputs.proxy) && url.origin === this.baseOrigin()) {
      for (const [key, value] of Object.entries(this.inputs.proxy)) appendQuery(key, value)
    }
    for (const [name, value] of query) url.searchParams.append(name, value)
    const contentType = headers["content-type"]
    const form = http.formBody || (contentType !== undefined && contentType.includes("application/x-www-form-urlencoded"))
    let encoded: ProviderRequest["body"]
    if (body !== undefined) {
      if (form) {
        const value: Record<string, string> = {}
        for (const [key, item] of Object.entries(body)) if (item !== undefined && item !== null) value[key] = paramText(item)
        encoded = { _tag: "Form", value }
      } else encoded = { _tag: "Json", value: body }
    }
    return { method: method as ProviderRequest["method"], url, headers, body: encoded }
  }

  /** Sends with authentication applied; a 401 on a cached client-credentials token refetches it once. */
  send(step: StepPlan | undefined, built: BuiltRequest): Effect.Effect<ProviderResponse, ActionError> {
    const attempt = (auth: ResolvedAuth) => {
      const url = new URL(built.url)
      for (const [name, value] of auth.query) if (!url.searchParams.has(name)) url.searchParams.append(name, value)
      const request: ProviderRequest = {
        method: built.method,
        url: url.toString(),
        headers: { ...auth.headers, ...built.headers },
        body: built.body,
        responseType: built.responseType,
        ...(built.bare === true ? { foreign: true } : {}),
        secrets: [...this.secrets]
      }
      return this.transport.send(request)
    }
    return Effect.gen(this, function*() {
      const auth = built.bare === true ? noAuth : yield* this.authorization()
      let response = yield* attempt(auth)
      if (response.status === 401 && auth.cacheKey !== undefined) {
        ;(this.run.tokenCache ?? defaultTokenCache).invalidate(auth.cacheKey)
        this.auth = undefined
        response = yield* attempt(yield* this.authorization())
      }
      if (isSuccess(response.status)) this.answered = { status: response.status, url: this.redactUrl(built.url.toString()) }
      const size = byteLength(response.body)
      if (size !== undefined && size > this.limits.maxResponseBytes) {
        return yield* Effect.fail(
          new ActionLimitError({
            limit: "maxResponseBytes",
            message: `response of ${size} bytes from ${this.redactUrl(built.url.origin + built.url.pathname)} exceeds ${this.limits.maxResponseBytes} bytes`,
            stepId: step?.stepId
          })
        )
      }
      return response
    })
  }

  httpError(
    step: StepPlan | undefined,
    method: string,
    url: string,
    response: ProviderResponse,
    message?: string
  ): ProviderHttpError {
    const forms = this.secretForms()
    const where = step === undefined ? "" : `step "${step.stepId}": `
    return new ProviderHttpError({
      message: `${where}${message ?? `provider answered ${response.status}`} (${method} ${redactText(url.split("?")[0]!, forms)})`,
      status: response.status,
      url: redactText(url, forms),
      method,
      body: redactValue(response.body, forms),
      headers: redactHeaders(response.headers, forms),
      stepId: step?.stepId
    })
  }

  /** `customErrors` first (any status), then any non-2xx status fails. */
  checkResponse(step: StepPlan, http: HttpPlan, built: BuiltRequest, response: ProviderResponse): void {
    const url = built.url.toString()
    if (http.customErrors.length > 0) {
      const scope = new RecordScope(this.scope, ["response"]).set({
        status: response.status,
        headers: response.headers,
        body: response.body
      })
      for (const rule of http.customErrors) {
        if (rule.receivedStatus !== response.status) continue
        if (rule.condition !== undefined && !isTruthy(rule.condition(scope))) continue
        const message = rule.message?.(scope)
        const forms = this.secretForms()
        throw new CustomProviderError({
          message: redactText(
            typeof message === "string" && message !== "" ? message : `provider answered ${response.status}`,
            forms
          ),
          targetStatus: rule.targetStatus,
          receivedStatus: response.status,
          url: redactText(url, forms),
          body: redactValue(response.body, forms),
          stepId: step.stepId
        })
      }
    }
    if (!isSuccess(response.status)) throw this.httpError(step, built.method, url, response)
  }

  stepDeadline(step: StepPlan | undefined, what?: string) {
    const ms = this.limits.stepTimeoutMs
    return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | ActionLimitError, R> =>
      Effect.timeoutFail(effect, {
        duration: Duration.millis(ms),
        onTimeout: () =>
          new ActionLimitError({
            limit: "stepTimeout",
            message: `${step === undefined ? what ?? "a request" : `step "${step.stepId}"`} took longer than ${ms} ms (stepTimeoutMs)`,
            stepId: step?.stepId
          })
      })
  }

  // ---- steps ----------------------------------------------------------------------

  request(step: StepPlan, http: HttpPlan): Effect.Effect<StepOutput, ActionError> {
    return Effect.gen(this, function*() {
      const built = yield* this.sync(step, () => this.buildRequest(step, http, { method: "GET", proxy: true }))
      const response = yield* this.send(step, built)
      return yield* this.sync(step, () => {
        this.checkResponse(step, http, built, response)
        const data = http.dataKey === undefined ? response.body : readBody(http.dataKey, response.body, this.bounds)
        const next = http.nextKey === undefined ? undefined : readBody(http.nextKey, response.body, this.bounds)
        return { data, next: isEmptyCursor(next) ? undefined : next, status: response.status, headers: response.headers }
      })
    })
  }

  paginated(step: StepPlan, kind: Extract<StepKind, { _tag: "paginated_request" }>): Effect.Effect<StepOutput, ActionError> {
    const { http, iterator } = kind
    return Effect.gen(this, function*() {
      const { maxPages, initial } = yield* this.sync(step, () => {
        const own = kind.maxPages === undefined ? undefined : Number(kind.maxPages(this.scope))
        const maxPages = own !== undefined && Number.isFinite(own) && own >= 1
          ? Math.min(Math.floor(own), this.limits.maxPages)
          : this.limits.maxPages
        const given = this.plan.declaresCursor ? this.inputs.cursor : undefined
        const initial = iterator?.value !== undefined
          ? iterator.value(this.scope)
          : iterator?.key !== undefined && iterator.in !== "url"
          ? given
          : typeof given === "string" && ABSOLUTE.test(given)
          ? given
          : undefined
        return { maxPages, initial }
      })
      const records: Array<unknown> = []
      const seen = new Set<string>()
      const cursorKey = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value))
      let cursor: unknown = isEmptyCursor(initial) ? undefined : initial
      if (cursor !== undefined) seen.add(cursorKey(cursor))
      let pages = 0
      let lastStatus = 0
      let lastHeaders: Readonly<Record<string, string>> = {}
      for (;;) {
        const page = cursor
        const built = yield* this.sync(step, () => {
          const request = this.buildRequest(step, http, { method: "GET", proxy: true })
          if (page === undefined) return request
          if (iterator === undefined || iterator.in === "url" || iterator.key === undefined) {
            const next = this.resolveUrl(paramText(page), false, step)
            if (next.origin !== request.url.origin) this.checkOrigin(next, request.url.origin, step)
            return { ...request, url: next }
          }
          switch (iterator.in) {
            case "query":
              request.url.searchParams.set(iterator.key, paramText(page))
              return request
            case "headers":
              return { ...request, headers: { ...request.headers, [iterator.key.toLowerCase()]: paramText(page) } }
            case "body": {
              const current = request.body?._tag === "Json" && isRecord(request.body.value) ? request.body.value : {}
              const value = { ...current, [iterator.key]: page }
              return {
                ...request,
                body: request.body?._tag === "Form"
                  ? { _tag: "Form" as const, value: { ...request.body.value, [iterator.key]: paramText(page) } }
                  : { _tag: "Json" as const, value }
              }
            }
          }
        })
        const response = yield* this.stepDeadline(step)(this.send(step, built))
        const { data, next } = yield* this.sync(step, () => {
          this.checkResponse(step, http, built, response)
          return {
            data: http.dataKey === undefined ? response.body : readBody(http.dataKey, response.body, this.bounds),
            next: http.nextKey === undefined ? undefined : readBody(http.nextKey, response.body, this.bounds)
          }
        })
        pages++
        lastStatus = response.status
        lastHeaders = response.headers
        if (Array.isArray(data)) {
          if (records.length + data.length > this.limits.maxRecords) {
            return yield* Effect.fail(this.tooManyRecords(step, records.length + data.length))
          }
          for (const item of data) records.push(item)
        } else if (data !== undefined && data !== null) {
          if (records.length + 1 > this.limits.maxRecords) return yield* Effect.fail(this.tooManyRecords(step, records.length + 1))
          records.push(data)
        }
        if (isEmptyCursor(next)) {
          cursor = undefined
          break
        }
        const key = cursorKey(next)
        if (seen.has(key)) {
          // the provider handed back a cursor it already gave: stop rather than loop
          cursor = undefined
          break
        }
        seen.add(key)
        cursor = next
        if (pages >= maxPages) break
        // a cursor without an iterator can only be followed when it is a URL
        if ((iterator === undefined || iterator.key === undefined) && !(typeof next === "string" && ABSOLUTE.test(next))) break
      }
      return { data: records, next: cursor, pages, status: lastStatus, headers: lastHeaders }
    })
  }

  tooManyRecords(step: StepPlan, count: number): ActionLimitError {
    return new ActionLimitError({
      limit: "maxRecords",
      message: `step "${step.stepId}" collected ${count} records; at most ${this.limits.maxRecords} allowed (maxRecords)`,
      stepId: step.stepId
    })
  }

  mapFields(step: StepPlan, kind: Extract<StepKind, { _tag: "map_fields" }>): Effect.Effect<StepOutput, ActionError> {
    return Effect.gen(this, function*() {
      const data = yield* this.sync(step, () => kind.dataSource(this.scope))
      const fields = kind.fields
      if (fields === undefined || data === undefined || data === null) return { data }
      const scope = new RecordScope(this.scope, kind.aliases)
      if (!Array.isArray(data)) return { data: yield* this.sync(step, () => mapRecord(fields, scope.set(data))) }
      if (data.length > this.limits.maxRecords) return yield* Effect.fail(this.tooManyRecords(step, data.length))
      const out = new Array<unknown>(data.length)
      if (data.length <= MAP_CHUNK) {
        yield* this.sync(step, () => mapRange(fields, scope, data, out, 0, data.length))
        return { data: out }
      }
      // long lists map in chunks, yielding in between, so deadlines can interrupt them
      const chunks = Effect.gen(this, function*() {
        for (let from = 0; from < data.length; from += MAP_CHUNK) {
          const to = Math.min(data.length, from + MAP_CHUNK)
          yield* this.sync(step, () => mapRange(fields, scope, data, out, from, to))
          if (to < data.length) yield* Effect.yieldNow()
        }
      })
      yield* this.stepDeadline(step)(chunks)
      return { data: out }
    })
  }

  typecast(step: StepPlan, kind: Extract<StepKind, { _tag: "typecast" }>): Effect.Effect<StepOutput, ActionError> {
    return this.sync(step, () => {
      const data = kind.dataSource(this.scope)
      const casts = kind.fields.map((field) => ({ key: field.key, coerce: coercionFor(field.type) }))
      const cast = (record: unknown): unknown => {
        if (!isRecord(record)) return record
        const out = { ...record }
        for (const { coerce, key } of casts) if (Object.prototype.hasOwnProperty.call(out, key)) out[key] = coerce(out[key])
        return out
      }
      if (Array.isArray(data)) {
        if (data.length > this.limits.maxRecords) throw this.tooManyRecords(step, data.length)
        return { data: data.map(cast) }
      }
      return { data: cast(data) }
    })
  }

  groupData(step: StepPlan, kind: Extract<StepKind, { _tag: "group_data" }>): Effect.Effect<StepOutput, ActionError> {
    return this.sync(step, () => {
      const sources = kind.stepIds.map((id) => {
        const state = this.steps[id]
        const output = isRecord(state) && isRecord(state.output) ? state.output : undefined
        return [id, output?.data] as const
      })
      if (kind.isSingleRecord) return { data: Object.fromEntries(sources) }
      const length = Math.max(1, ...sources.map(([, data]) => (Array.isArray(data) ? data.length : 1)))
      if (length > this.limits.maxRecords) throw this.tooManyRecords(step, length)
      const data = Array.from({ length }, (_, index) => {
        const record: Record<string, unknown> = {}
        for (const [id, value] of sources) record[id] = Array.isArray(value) ? value[index] : value
        return record
      })
      return { data }
    })
  }

  download(step: StepPlan, kind: Extract<StepKind, { _tag: "download_file" }>): Effect.Effect<StepOutput, ActionError> {
    const streamed = this.run.downloads === "stream"
    return Effect.gen(this, function*() {
      const built = yield* this.sync(step, () => ({
        ...this.buildRequest(step, kind.http, { method: "GET", proxy: false, foreignOk: true }),
        responseType: streamed ? "stream" as const : "bytes" as const
      }))
      const response = yield* this.send(step, built)
      return yield* this.sync(step, () => {
        this.checkResponse(step, kind.http, built, response)
        const declared = (evaluator: Evaluator | undefined) => {
          const value = evaluator?.(this.scope)
          return typeof value === "string" && value !== "" ? value : undefined
        }
        const contentType = declared(kind.contentType) ?? header(response.headers, "content-type") ??
          "application/octet-stream"
        const fileName = declared(kind.fileName) ?? fileNameOf(header(response.headers, "content-disposition"))
        let data: Uint8Array | FileDownload
        if (streamed && response.body instanceof StreamedBody) {
          data = new FileDownload(response.body.stream, contentType, fileName, response.body.contentLength)
        } else {
          const bytes = toBytes(response.body)
          // a transport that answered a streamed download with bytes is passed on as one chunk
          data = streamed ? new FileDownload(Stream.succeed(bytes), contentType, fileName, bytes.byteLength) : bytes
        }
        const output: StepOutput = { data, contentType, status: response.status }
        if (fileName !== undefined) output.fileName = fileName
        return output
      })
    })
  }

  upload(step: StepPlan, kind: Extract<StepKind, { _tag: "upload_file" }>): Effect.Effect<StepOutput, ActionError> {
    return Effect.gen(this, function*() {
      const built = yield* this.sync(step, (): BuiltRequest => {
        const request = this.buildRequest(step, kind.http, { method: "POST", proxy: false })
        const inputs = this.inputs
        const content = kind.content !== undefined
          ? kind.content(this.scope)
          : inputs.content ?? inputs.file ?? inputs.body
        const encoding = kind.encoding === undefined ? "base64" : paramText(kind.encoding(this.scope))
        let bytes: Uint8Array | undefined
        if (content instanceof Uint8Array) bytes = content
        else if (typeof content === "string") {
          bytes = encoding === "base64" ? decodeBase64(content) : new Uint8Array(Buffer.from(content, "utf8"))
        }
        if (bytes === undefined) {
          throw ActionInputError.fromIssues([{
            input: "content",
            message: content === undefined ? "is required (the file to upload)" : "must be bytes or base64 text"
          }])
        }
        const declaredType = kind.contentType?.(this.scope)
        const contentType = typeof declaredType === "string" && declaredType !== ""
          ? declaredType
          : request.headers["content-type"] ?? "application/octet-stream"
        const headers = { ...request.headers }
        delete headers["content-type"]
        const fileName = kind.fileName?.(this.scope)
        if (typeof fileName === "string" && fileName !== "" && headers["content-disposition"] === undefined) {
          headers["content-disposition"] = `attachment; filename="${fileName.replace(/["\\\r\n]/g, "_")}"`
        }
        return { ...request, headers, body: { _tag: "Bytes", value: bytes, contentType } }
      })
      const response = yield* this.send(step, built)
      return yield* this.sync(step, () => {
        this.checkResponse(step, kind.http, built, response)
        const http = kind.http
        const data = http.dataKey === undefined ? response.body : readBody(http.dataKey, response.body, this.bounds)
        return { data, status: response.status, headers: response.headers }
      })
    })
  }

  mcp(step: StepPlan, kind: Extract<StepKind, { _tag: "mcp_request" }>): Effect.Effect<StepOutput, ActionError> {
    return Effect.gen(this, function*() {
      const { url, method, params } = yield* this.sync(step, () => {
        const target = kind.url === undefined ? "" : paramText(kind.url(this.scope) ?? "")
        const method = paramText(kind.method(this.scope))
        let params: Record<string, unknown> | undefined
        if (method === "tools/call") {
          const name = kind.name?.(this.scope)
          if (typeof name !== "string" || name === "") {
            throw new ActionDefinitionError({
              message: `step "${step.stepId}": tools/call needs parameters.name`,
              actionId: this.plan.action.actionId,
              stepId: step.stepId
            })
          }
          const args = kind.arguments?.(this.scope)
          params = { name, arguments: isRecord(args) ? args : {} }
        } else {
          const cursor = kind.cursor?.(this.scope)
          const args = kind.arguments?.(this.scope)
          params = isRecord(args) ? { ...args } : {}
          if (!isEmptyCursor(cursor)) params.cursor = cursor
        }
        return { url: this.resolveUrl(target, kind.staticOrigin, step), method, params }
      })
      const call = (id: number | undefined, rpcMethod: string, rpcParams: unknown, session: string | undefined) => {
        const headers: Record<string, string> = {
          accept: "application/json, text/event-stream",
          "content-type": "application/json"
        }
        if (session !== undefined) headers["mcp-session-id"] = session
        const message: Record<string, unknown> = { jsonrpc: "2.0", method: rpcMethod }
        if (id !== undefined) message.id = id
        if (rpcParams !== undefined) message.params = rpcParams
        return this.send(step, { method: "POST", url, headers, body: { _tag: "Json", value: message } })
      }
      const key = url.toString()
      const id = ++this.mcpId
      let response = yield* call(id, method, params, this.mcpSessions.get(key))
      let parsed = parseMcpResponse(response, id)
      if (!this.mcpSessions.has(key) && parsed._tag !== "Result" && needsSession(response, parsed)) {
        // a stateful server: initialize a session, then ask again once
        const initId = ++this.mcpId
        const init = yield* call(initId, "initialize", mcpInitializeParams, undefined)
        const session = header(init.headers, "mcp-session-id")
        const initParsed = parseMcpResponse(init, initId)
        if (isSuccess(init.status) && initParsed._tag === "Result") {
          if (session !== undefined) this.mcpSessions.set(key, session)
          yield* call(undefined, "notifications/initialized", undefined, session)
          const retryId = ++this.mcpId
          response = yield* call(retryId, method, params, session)
          parsed = parseMcpResponse(response, retryId)
        }
      }
      if (parsed._tag === "Result" && isSuccess(response.status)) {
        const result = parsed.result
        if (method === "tools/list") {
          const tools = isRecord(result) && Array.isArray(result.tools) ? result.tools : []
          const next = isRecord(result) ? result.nextCursor : undefined
          return { data: tools, next: isEmptyCursor(next) ? undefined : next, status: response.status }
        }
        return { data: result, status: response.status }
      }
      const detail = parsed._tag === "Error"
        ? `MCP ${method} failed: ${typeof parsed.error.message === "string" ? parsed.error.message : "error"}`
        : parsed._tag === "Invalid"
        ? `MCP ${method}: ${parsed.reason}`
        : undefined
      return yield* Effect.fail(
        this.httpError(step, "POST", key, parsed._tag === "Error" ? { ...response, body: parsed.error } : response, detail)
      )
    })
  }

  stepEffect(step: StepPlan): Effect.Effect<StepOutput, ActionError> {
    const kind = step.kind
    const deadline = this.stepDeadline(step)
    switch (kind._tag) {
      case "request":
        return deadline(this.request(step, kind.http))
      case "paginated_request":
        // the deadline applies per page; the action deadline bounds the whole
        return this.paginated(step, kind)
      // CPU-only steps: bounded by maxRecords; long mappings take the deadline themselves
      case "map_fields":
        return this.mapFields(step, kind)
      case "typecast":
        return this.typecast(step, kind)
      case "static_values":
        return this.sync(step, () => ({ data: kind.values(this.scope) }))
      case "group_data":
        return this.groupData(step, kind)
      case "download_file":
        return deadline(this.download(step, kind))
      case "upload_file":
        return deadline(this.upload(step, kind))
      case "mcp_request":
        return deadline(this.mcp(step, kind))
    }
  }

  runStep(step: StepPlan): Effect.Effect<void, ActionError> {
    return Effect.gen(this, function*() {
      if (step.condition !== undefined) {
        const condition = step.condition
        const go = yield* this.sync(step, () => isTruthy(condition(this.scope)))
        if (!go) {
          this.steps[step.stepId] = { skipped: true }
          return
        }
      }
      const outcome = yield* Effect.either(this.stepEffect(step))
      if (Either.isRight(outcome)) {
        this.steps[step.stepId] = { output: outcome.right }
        this.lastStep = { plan: step, output: outcome.right }
        return
      }
      const error = outcome.left
      const ignorable = step.ignoreError && (error._tag !== "ActionLimitError" || error.limit === "stepTimeout")
      if (!ignorable) return yield* Effect.fail(error)
      const recorded: Record<string, unknown> = { tag: error._tag, message: this.redactError(error).message }
      if (error._tag === "ProviderHttpError") recorded.status = error.status
      if (error._tag === "CustomProviderError") recorded.status = error.targetStatus
      this.steps[step.stepId] = { output: undefined, error: recorded }
    })
  }

  result(): Effect.Effect<ActionOutput, ActionError> {
    return this.sync(undefined, () => {
      const last = this.lastStep
      let data: unknown
      if (this.plan.resultData !== undefined) data = this.plan.resultData(this.scope)
      else if (last?.plan.kind._tag === "download_file") {
        const { contentType, data: bytes, fileName } = last.output
        // a streamed file carries its media type and name itself
        if (bytes instanceof FileDownload) data = bytes
        else data = fileName === undefined ? { data: bytes, contentType } : { data: bytes, contentType, fileName }
      } else data = last?.output.data
      let next = this.plan.resultNext !== undefined
        ? this.plan.resultNext(this.scope)
        : this.plan.resultData === undefined
        ? last?.output.next
        : undefined
      if (isEmptyCursor(next)) next = undefined
      if (this.plan.isList) {
        if (data === undefined || data === null) data = []
        else if (!Array.isArray(data)) data = [data]
        if ((data as Array<unknown>).length > this.limits.maxRecords) {
          throw new ActionLimitError({
            limit: "maxRecords",
            message: `result holds ${(data as Array<unknown>).length} records; at most ${this.limits.maxRecords} allowed (maxRecords)`
          })
        }
      }
      return { data, next }
    })
  }

  execute(): Effect.Effect<ActionOutput, ActionError> {
    return Effect.gen(this, function*() {
      for (const step of this.plan.steps) yield* this.runStep(step)
      return yield* this.result()
    })
  }
}

const needsSession = (response: ProviderResponse, parsed: ReturnType<typeof parseMcpResponse>): boolean => {
  if (response.status === 400 || response.status === 404 || response.status === 409) return true
  if (parsed._tag === "Error") {
    const code = parsed.error.code
    const message = typeof parsed.error.message === "string" ? parsed.error.message.toLowerCase() : ""
    return code === -32600 || code === -32000 || code === -32001 || message.includes("session") || message.includes("initializ")
  }
  return false
}

const resolveLimits = (limits: Partial<RunLimits> | undefined): RunLimits => {
  if (limits === undefined) return defaultRunLimits
  const out = { ...defaultRunLimits }
  for (const key of Object.keys(defaultRunLimits) as Array<keyof RunLimits>) {
    const value = limits[key]
    if (typeof value === "number" && Number.isFinite(value) && value > 0) out[key] = value
  }
  return out
}

/**
 * Runs one action of a connector version against the provider transport.
 *
 * Inputs are validated first (`ActionInputError`); steps run in order; `result.data` and
 * `result.next` are evaluated at the end (a list action always answers an array). The
 * whole run is bounded by `limits.actionTimeoutMs`, each step by `limits.stepTimeoutMs`.
 */
export const runAction = (
  parsed: ParsedConnector,
  actionId: string,
  inputs: Readonly<Record<string, unknown>>,
  context: RunContext
): Effect.Effect<ActionOutput, ActionError, ProviderTransport> => {
  const limits = resolveLimits(context.limits)
  const secrets = credentialSecrets(parsed, context.credentials)
  let run: Run | undefined
  const program = Effect.gen(function*() {
    const plan = yield* planAction(parsed, actionId)
    const validated = yield* validateInputs(plan.action, inputs)
    const transport = yield* ProviderTransport
    run = new Run(parsed, planConnector(parsed), plan, validated, context, limits, transport, secrets)
    return yield* run.execute()
  })
  return program.pipe(
    Effect.timeoutFail({
      duration: Duration.millis(limits.actionTimeoutMs),
      onTimeout: () =>
        new ActionLimitError({
          limit: "actionTimeout",
          message: `action "${actionId}" took longer than ${limits.actionTimeoutMs} ms (actionTimeoutMs)`
        })
    }),
    Effect.mapError((error): ActionError => {
      if (error instanceof ProviderTransportError) return error
      if (run !== undefined) return run.redactError(error)
      const forms = secretForms(secrets)
      return forms.length === 0 ? error : redactSimple(error, forms)
    })
  )
}

const redactSimple = (error: ActionError, forms: ReadonlyArray<string>): ActionError =>
  error._tag === "ActionInputError"
    ? new ActionInputError({
      message: redactText(error.message, forms),
      issues: error.issues.map((issue) => ({ input: issue.input, message: redactText(issue.message, forms) }))
    })
    : error
