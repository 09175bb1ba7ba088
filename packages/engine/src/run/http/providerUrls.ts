import { Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { ActionDefinitionError } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { ABSOLUTE_URL } from "../wireValues.js"

/* Where a run's requests may go: the base URL, and URLs computed from connector text. */

/** The account's base URL, else the connector's (evaluated once per run). */
export const baseUrlOf = (run: RunState): string | undefined => {
  if (run.baseUrl === null) {
    const given = run.context.baseUrl
    if (given !== undefined && given !== "") run.baseUrl = given
    else if (run.connector.baseUrl !== undefined) {
      const value = run.connector.baseUrl(run.scope)
      run.baseUrl = typeof value === "string" && value !== "" ? value : undefined
    } else run.baseUrl = undefined
  }
  return run.baseUrl
}

const originOf = (url: string | undefined): string | undefined => {
  if (url === undefined) return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

export const baseOriginOf = (run: RunState): string | undefined => originOf(baseUrlOf(run))

/**
 * An absolute http(s) URL for `target` (absolute, or relative to the base URL). A computed
 * absolute URL must keep the base URL's origin unless `foreignOk`: inputs never point the
 * account's credentials at another host.
 */
export const resolveUrl = (
  run: RunState,
  target: string,
  staticOrigin: boolean,
  step: StepPlan | undefined,
  foreignOk = false
): Either.Either<URL, ActionDefinitionError> => {
  const base = baseUrlOf(run)
  let text: string
  if (ABSOLUTE_URL.test(target)) text = target
  else {
    if (base === undefined) return Either.left(run.definitionError(step, `relative URL "${target}" but the connector has no baseUrl`))
    const trimmed = base.replace(/\/+$/, "")
    text = target === "" ? trimmed : target.startsWith("/") || target.startsWith("?") ? trimmed + target : `${trimmed}/${target}`
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return Either.left(run.definitionError(step, `not a valid URL: ${text}`))
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Either.left(run.definitionError(step, `URL scheme ${url.protocol} is not allowed (http and https only)`))
  }
  if (!staticOrigin && !foreignOk && ABSOLUTE_URL.test(target)) return sameOrigin(run, url, base, step)
  return Either.right(url)
}

/** `url` when it is on `base`'s origin; refused otherwise. */
export const sameOrigin = (
  run: RunState,
  url: URL,
  base: string | undefined,
  step: StepPlan | undefined
): Either.Either<URL, ActionDefinitionError> =>
  url.origin === originOf(base) ? Either.right(url) : Either.left(run.definitionError(
    step,
    `a computed URL points at ${url.origin}, outside the connector's base URL; refusing to send credentials there`
  ))
