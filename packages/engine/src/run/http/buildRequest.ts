import { Either } from "effect"
import type { HttpPlan, StepPlan } from "../../actionPlan.js"
import { isTruthy } from "../../evaluate.js"
import type { ProviderRequest } from "../../ProviderTransport.js"
import type { ActionDefinitionError } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { isRecord, paramText } from "../wireValues.js"
import type { BuiltRequest } from "./BuiltRequest.js"
import { baseOriginOf, resolveUrl, stepOriginOf } from "./providerUrls.js"

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"])

export interface RequestDefaults {
  readonly method: ProviderRequest["method"]
  /** Adds the caller's `proxy` query parameters (requests to the provider's own API only). */
  readonly proxy: boolean
  /** A computed URL may point at another origin; such a request is then sent bare. */
  readonly foreignOk?: boolean
}

/**
 * The request an HTTP step describes: method, URL with path and query arguments, headers,
 * and a JSON or form body. Evaluates the connector's expressions (which may throw
 * `ExpressionError`: call it through `RunState.attempt`).
 */
export const buildRequest = (
  run: RunState,
  step: StepPlan,
  http: HttpPlan,
  defaults: RequestDefaults
): Either.Either<BuiltRequest, ActionDefinitionError> => {
  const scope = run.scope
  const method = http.method === undefined ? defaults.method : paramText(http.method(scope)).toUpperCase()
  if (!METHODS.has(method)) return Either.left(run.definitionError(step, `step "${step.stepId}": unsupported HTTP method "${method}"`))
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
  const foreignGet = defaults.foreignOk === true && method === "GET"
  const resolved = resolveUrl(run, target, http.staticOrigin, step, foreignGet)
  if (Either.isLeft(resolved)) return Either.left(resolved.left)
  const url = resolved.right
  const baseOrigin = baseOriginOf(run)
  if (url.origin !== stepOriginOf(run, step) && foreignGet && !http.staticOrigin) {
    // nothing of the connector's (credentials, headers, query or path arguments) goes to a host it does not name
    const refuse = (why: string) => Either.left(run.definitionError(step, `step "${step.stepId}": the download link on ${url.origin} ${why}`))
    if (url.protocol !== "https:") return refuse("is not https; links to other hosts must be")
    if (substituted) return refuse("would carry the step's path arguments to another host")
    return Either.right({ method: "GET", url, headers: {}, body: undefined, bare: true })
  }
  // `proxy` query parameters are meant for the provider's API, not for other hosts or servers
  if (defaults.proxy && http.server === undefined && isRecord(run.inputs.proxy) && url.origin === baseOrigin) {
    for (const [key, value] of Object.entries(run.inputs.proxy)) appendQuery(key, value)
  }
  for (const [name, value] of query) url.searchParams.append(name, value)
  const server = http.server === undefined ? undefined : run.connector.servers.get(http.server)
  return Either.right({
    method: method as ProviderRequest["method"],
    url,
    headers,
    body: encodeBody(http, headers, body),
    ...(server !== undefined && !server.authenticated ? { withoutAuthentication: true } : {})
  })
}

const encodeBody = (
  http: HttpPlan,
  headers: Readonly<Record<string, string>>,
  body: Record<string, unknown> | undefined
): ProviderRequest["body"] => {
  if (body === undefined) return undefined
  const contentType = headers["content-type"]
  if (http.formBody || (contentType !== undefined && contentType.includes("application/x-www-form-urlencoded"))) {
    const value: Record<string, string> = {}
    for (const [key, item] of Object.entries(body)) if (item !== undefined && item !== null) value[key] = paramText(item)
    return { _tag: "Form", value }
  }
  return { _tag: "Json", value: body }
}
