import type { FaultRegistry } from "../faults.js"
import type { Route } from "../router.js"
import { LOOK_ALIKE_PROVIDERS, type LookAlikeProvider } from "../lookAlikes/LookAlike.js"
import type { RequestLog } from "./requestLog.js"

export type Provider = "ats" | "hris" | "lms" | "mcp" | "oauth" | LookAlikeProvider
export const PROVIDERS: ReadonlyArray<Provider> = ["ats", "hris", "lms", "mcp", "oauth", ...LOOK_ALIKE_PROVIDERS]

/** The shared state every provider server sees: faults, the request log and the admin hooks. */
export interface Shared {
  readonly faults: FaultRegistry
  readonly log: RequestLog
  reset(): void
  info(): unknown
  /** More `/_sandbox` admin routes, served on every origin (e.g. the OAuth provider's). */
  readonly adminExtras?: ReadonlyArray<Route>
}
