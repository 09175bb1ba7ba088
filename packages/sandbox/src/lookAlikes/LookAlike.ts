import type { Clock } from "../clock.js"
import type { FileStore } from "../files.js"
import type { Ctx } from "../http/ctx.js"
import type { HttpError } from "../http/httpError.js"
import type { Route } from "../router.js"

/**
 * A provider look-alike beyond the sandbox's original five: its data, its routes and how it is
 * reached. Each one follows its provider's public documentation (authentication, pagination,
 * error bodies, rate-limit headers) and lives in its own folder; `LOOK_ALIKES` lists them, and
 * `startSandbox` starts each on its own port, with the sandbox's faults, request log, clock and
 * reset like every other provider.
 */
export interface LookAlike<State = any> {
  /** The sandbox's name for it (`sandbox.lookAlikes[provider]`, `/_sandbox/requests?provider=`). */
  readonly provider: LookAlikeProvider
  /** Who it imitates, for `pnpm sandbox`'s banner, e.g. "Ashby (public API v1)". */
  readonly title: string
  /** Its data for a seed, made again on reset. */
  readonly generate: (seed: number, files: FileStore) => State
  /** Its credentials for a seed (e.g. `{ apiKey }`); `credentials` of the options override them. */
  readonly credentials: (seed: number) => Readonly<Record<string, string>>
  readonly routes: (context: LookAlikeContext<State>) => ReadonlyArray<Route>
  /** The provider's answer to a path it does not have. */
  readonly notFound: (ctx: Ctx) => void
  /** The provider's error body for an `HttpError` (default: the error's body as JSON). */
  readonly onError?: (ctx: Ctx, error: HttpError) => void
  /** Where its API is, from the server's origin (e.g. `${url}/v1`). */
  readonly baseUrl: (url: string) => string
  /** Lines for the banner: how to call it with its credentials (`curl ...`). */
  readonly usage?: (info: LookAlikeInfo) => ReadonlyArray<string>
  /** How a request body appears in the request log (default: its text), e.g. to redact secrets. */
  readonly logBody?: (ctx: Ctx) => string
}

export interface LookAlikeContext<State> {
  /** Read on each request: a sandbox reset replaces the data. */
  readonly state: () => State
  readonly files: () => FileStore
  readonly clock: Clock
  readonly credentials: Readonly<Record<string, string>>
}

export interface LookAlikeInfo {
  /** The server's origin. */
  readonly url: string
  /** Where its API is (what a connector's `base_url` setting takes). */
  readonly baseUrl: string
  readonly credentials: Readonly<Record<string, string>>
}

/** The look-alikes' names, also accepted wherever the sandbox takes a provider. */
export const LOOK_ALIKE_PROVIDERS = ["ashby", "workable", "teamtailor", "recruitee", "smartrecruiters"] as const
export type LookAlikeProvider = (typeof LOOK_ALIKE_PROVIDERS)[number]
