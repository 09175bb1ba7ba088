import type { FaultRegistry } from "../faults.js"
import type { RequestLog } from "./requestLog.js"

export type Provider = "ats" | "hris" | "lms" | "mcp"
export const PROVIDERS: ReadonlyArray<Provider> = ["ats", "hris", "lms", "mcp"]

/** The shared state every provider server sees: faults, the request log and the admin hooks. */
export interface Shared {
  readonly faults: FaultRegistry
  readonly log: RequestLog
  reset(): void
  info(): unknown
}
