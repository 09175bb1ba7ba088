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

/** A named server's URL: the caller's replacement, else the connector's (evaluated once per run). */
export const serverUrlOf = (run: RunState, name: string): string | undefined => {
  if (!run.serverUrls.has(name)) {
    const given = run.context.servers?.[name]
    let url: string | undefined
    if (given !== undefined && given !== "") url = given
    else {
      const value = run.connector.servers.get(name)?.url(run.scope)
      url = typeof value === "string" && value !== "" ? value : undefined
    }
    run.serverUrls.set(name, url)
  }
  return run.serverUrls.get(name)
}

/** The server a step's requests go to: its named server, else the base URL. */
const stepServerOf = (step: StepPlan | undefined): string | undefined =>
  step !== undefined && "http" in step.kind ? step.kind.http.server : undefined

/** The URL a step's relative URLs are relative to: its named server's, else the base URL. */
export const stepBaseUrlOf = (run: RunState, step: StepPlan | undefined): string | undefined => {
  const server = stepServerOf(step)
  return server === undefined ? baseUrlOf(run) : serverUrlOf(run, server)
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

/** The origin of the server a step's requests go to. */
export const stepOriginOf = (run: RunState, step: StepPlan | undefined): string | undefined => originOf(stepBaseUrlOf(run, step))

/**
 * An absolute http(s) URL for `target` (absolute, or relative to the step's server: its named
 * server, else the base URL). A computed absolute URL must keep that server's origin unless
 * `foreignOk`: inputs never point the account's credentials at another host.
 */
export const resolveUrl = (
  run: RunState,
  target: string,
  staticOrigin: boolean,
  step: StepPlan | undefined,
  foreignOk = false
): Either.Either<URL, ActionDefinitionError> => {
  const server = stepServerOf(step)
  const base = stepBaseUrlOf(run, step)
  let text: string
  if (ABSOLUTE_URL.test(target)) text = target
  else {
    if (base === undefined) {
      return Either.left(run.definitionError(
        step,
        server === undefined
          ? `relative URL "${target}" but the connector has no baseUrl`
          : `relative URL "${target}" but server "${server}" has no URL`
      ))
    }
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
    `a computed URL points at ${url.origin}, outside the server the step calls; refusing to send credentials there`
  ))
