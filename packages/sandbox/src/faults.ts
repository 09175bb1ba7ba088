import { PROVIDERS, type Provider } from "./http/shared.js"

/**
 * Fault injection. A fault is chosen per request from the `x-sandbox-fault` header, or per run from
 * plans registered with `POST /_sandbox/faults` (or `sandbox.faults.add`).
 */

export const FAULT_KINDS = ["latency", "status", "rate_limit", "timeout", "reset", "malformed_json", "oversized"] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultMatch {
  /** Only requests to this provider's server. */
  readonly provider?: Provider
  /** HTTP method, case-insensitive. */
  readonly method?: string
  /** The URL path without the query: exact, or a glob where `*` is one path segment's characters and `**` is anything. */
  readonly path?: string
  /** The URL path starts with this. */
  readonly pathPrefix?: string
}

export interface FaultPlan {
  readonly match?: FaultMatch
  readonly fault: FaultKind
  /** `status`: the status code (default 500). */
  readonly status?: number
  /** `latency`: delay before the normal answer, in ms (default 1000). */
  readonly latencyMs?: number
  /** `rate_limit` (and `status`): Retry-After in seconds (default 1 for rate_limit), or a literal header value. */
  readonly retryAfter?: number | string
  /** How a numeric retryAfter is written: "seconds" (default) or "http-date" (now + retryAfter seconds). */
  readonly retryAfterFormat?: "seconds" | "http-date"
  /** `oversized`: body size in MiB (default 5). */
  readonly sizeMiB?: number
  /** Fire this many times, then stop (default: every matching request). */
  readonly times?: number
  /** Let this many matching requests through before firing (default 0). */
  readonly after?: number
}

export interface ActiveFault {
  readonly kind: FaultKind
  readonly status?: number
  readonly latencyMs?: number
  readonly retryAfter?: number | string
  readonly retryAfterFormat?: "seconds" | "http-date"
  readonly sizeMiB?: number
  /** "header" or the plan id. */
  readonly source: string
}

export interface RegisteredFault extends FaultPlan {
  readonly id: string
  /** Matching requests seen so far. */
  matched: number
  /** Times it fired. */
  fired: number
}

export class FaultError extends Error {}

const isKind = (value: unknown): value is FaultKind => typeof value === "string" && (FAULT_KINDS as ReadonlyArray<string>).includes(value)

const nonNegative = (value: unknown, field: string): number | undefined => {
  if (value === undefined) return undefined
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new FaultError(`${field} must be a non-negative number`)
  return value
}

/** Checks a plan from JSON; throws FaultError with a readable message. */
export const validatePlan = (input: unknown): FaultPlan => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new FaultError("a fault plan must be an object")
  const raw = input as Record<string, unknown>
  if (!isKind(raw["fault"])) throw new FaultError(`fault must be one of: ${FAULT_KINDS.join(", ")}`)
  const match = raw["match"]
  if (match !== undefined && (typeof match !== "object" || match === null || Array.isArray(match))) throw new FaultError("match must be an object")
  const matchFields = (match ?? {}) as Record<string, unknown>
  for (const key of ["provider", "method", "path", "pathPrefix"]) {
    if (matchFields[key] !== undefined && typeof matchFields[key] !== "string") throw new FaultError(`match.${key} must be a string`)
  }
  if (matchFields["provider"] !== undefined && !(PROVIDERS as ReadonlyArray<string>).includes(matchFields["provider"] as string)) {
    throw new FaultError(`match.provider must be one of: ${PROVIDERS.join(", ")}`)
  }
  const status = nonNegative(raw["status"], "status")
  if (status !== undefined && (!Number.isInteger(status) || status < 100 || status > 599)) throw new FaultError("status must be an HTTP status code")
  const retryAfter = raw["retryAfter"]
  if (retryAfter !== undefined && typeof retryAfter !== "string") nonNegative(retryAfter, "retryAfter")
  const format = raw["retryAfterFormat"]
  if (format !== undefined && format !== "seconds" && format !== "http-date") throw new FaultError('retryAfterFormat must be "seconds" or "http-date"')
  nonNegative(raw["latencyMs"], "latencyMs")
  nonNegative(raw["sizeMiB"], "sizeMiB")
  nonNegative(raw["times"], "times")
  nonNegative(raw["after"], "after")
  return raw as unknown as FaultPlan
}

const globToRegExp = (glob: string): RegExp => {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&")
  return new RegExp(`^${escaped.replace(/\*\*/g, "\u0000").replace(/\*/g, "[^/]*").replace(/\u0000/g, ".*")}$`)
}

const matches = (plan: FaultPlan, provider: Provider, method: string, path: string): boolean => {
  const match = plan.match
  if (match === undefined) return true
  if (match.provider !== undefined && match.provider !== provider) return false
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false
  if (match.pathPrefix !== undefined && !path.startsWith(match.pathPrefix)) return false
  if (match.path !== undefined) {
    if (match.path.includes("*") ? !globToRegExp(match.path).test(path) : match.path !== path) return false
  }
  return true
}

const toActive = (plan: FaultPlan, source: string): ActiveFault => ({
  kind: plan.fault,
  source,
  ...(plan.status !== undefined ? { status: plan.status } : {}),
  ...(plan.latencyMs !== undefined ? { latencyMs: plan.latencyMs } : {}),
  ...(plan.retryAfter !== undefined ? { retryAfter: plan.retryAfter } : {}),
  ...(plan.retryAfterFormat !== undefined ? { retryAfterFormat: plan.retryAfterFormat } : {}),
  ...(plan.sizeMiB !== undefined ? { sizeMiB: plan.sizeMiB } : {})
})

export class FaultRegistry {
  private plans: Array<RegisteredFault> = []
  private counter = 0

  add(plans: FaultPlan | ReadonlyArray<FaultPlan>): Array<RegisteredFault> {
    const list = (Array.isArray(plans) ? plans : [plans]) as ReadonlyArray<FaultPlan>
    const added = list.map((plan) => ({ ...validatePlan(plan), id: `fault_${++this.counter}`, matched: 0, fired: 0 }))
    this.plans.push(...added)
    return added
  }
  remove(id: string): boolean {
    const before = this.plans.length
    this.plans = this.plans.filter((plan) => plan.id !== id)
    return this.plans.length !== before
  }
  clear(): void {
    this.plans = []
  }
  list(): Array<RegisteredFault> {
    return this.plans.map((plan) => ({ ...plan }))
  }
  /** The plans that fire for this request (counting it against `after` / `times`). */
  take(provider: Provider, method: string, path: string): Array<ActiveFault> {
    const fired: Array<ActiveFault> = []
    for (const plan of this.plans) {
      if (!matches(plan, provider, method, path)) continue
      plan.matched++
      if (plan.matched <= (plan.after ?? 0)) continue
      if (plan.times !== undefined && plan.fired >= plan.times) continue
      plan.fired++
      fired.push(toActive(plan, plan.id))
    }
    return fired
  }
}

/**
 * Parses `x-sandbox-fault`: faults separated by commas; each is `kind`, `kind=value` (the kind's main
 * parameter) and/or `;key=value` parameters. Examples: `latency=250`, `status=503`,
 * `status;code=503;retry_after=2`, `rate_limit=5`, `rate_limit;retry_after=5;format=http-date`,
 * `timeout`, `reset`, `malformed_json`, `oversized=2`.
 */
export const parseFaultHeader = (header: string | ReadonlyArray<string> | undefined): Array<ActiveFault> => {
  if (header === undefined) return []
  const text = Array.isArray(header) ? header.join(",") : (header as string)
  const out: Array<ActiveFault> = []
  for (const part of text.split(",").map((piece) => piece.trim()).filter((piece) => piece.length > 0)) {
    const [head = "", ...parameterParts] = part.split(";").map((piece) => piece.trim())
    const [kindRaw = "", mainValue] = head.split("=").map((piece) => piece.trim())
    const kind = kindRaw.toLowerCase().replace(/-/g, "_")
    if (!isKind(kind)) throw new FaultError(`unknown fault "${kindRaw}" in x-sandbox-fault (known: ${FAULT_KINDS.join(", ")})`)
    const parameters = new Map<string, string>()
    for (const parameterPart of parameterParts) {
      const [key = "", value = ""] = parameterPart.split("=").map((piece) => piece.trim())
      parameters.set(key.toLowerCase().replace(/-/g, "_"), value)
    }
    const numberParam = (value: string | undefined, field: string): number | undefined => {
      if (value === undefined || value === "") return undefined
      const parsed = Number(value)
      if (!Number.isFinite(parsed) || parsed < 0) throw new FaultError(`x-sandbox-fault: ${field} must be a non-negative number`)
      return parsed
    }
    const format = parameters.get("format")
    if (format !== undefined && format !== "seconds" && format !== "http-date") throw new FaultError('x-sandbox-fault: format must be "seconds" or "http-date"')
    const plan: Record<string, unknown> = { fault: kind }
    switch (kind) {
      case "latency":
        plan["latencyMs"] = numberParam(mainValue ?? parameters.get("ms"), "latency")
        break
      case "status":
        plan["status"] = numberParam(mainValue ?? parameters.get("code"), "status")
        plan["retryAfter"] = numberParam(parameters.get("retry_after"), "retry_after")
        break
      case "rate_limit":
        plan["retryAfter"] = numberParam(mainValue ?? parameters.get("retry_after"), "retry_after")
        break
      case "oversized":
        plan["sizeMiB"] = numberParam(mainValue ?? parameters.get("mib"), "oversized")
        break
      default:
        break
    }
    if (format !== undefined) plan["retryAfterFormat"] = format
    for (const key of Object.keys(plan)) if (plan[key] === undefined) delete plan[key]
    out.push(toActive(validatePlan(plan), "header"))
  }
  return out
}

export const retryAfterValue = (fault: ActiveFault, fallbackSeconds: number | undefined): string | undefined => {
  const value = fault.retryAfter ?? fallbackSeconds
  if (value === undefined) return undefined
  if (typeof value === "string") return value
  return fault.retryAfterFormat === "http-date" ? new Date(Date.now() + value * 1000).toUTCString() : String(value)
}
