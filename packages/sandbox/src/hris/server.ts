import type { Ctx } from "../http/ctx.js"
import type { Route } from "../router.js"
import { directoryRoutes } from "./directory.js"
import { employeeFileRoutes } from "./employeeFiles.js"
import { employeeRoutes } from "./employees.js"
import { HrisContext, type HrisOptions } from "./hrisContext.js"
import { metadataRoutes } from "./metadata.js"
import { tableRoutes } from "./tables.js"
import { timeOffRoutes } from "./timeOff.js"

export type { HrisOptions } from "./hrisContext.js"

/**
 * The HRIS routes, modeled on the BambooHR API v1 (`/api/gateway.php/{companyDomain}/v1/...`), one
 * module per resource. Order matters: `/employees/directory` and `/employees/changed` must come
 * before `/employees/:id`, and `files/view` before `files/:fileId`, as the first match wins.
 */
export const hrisRoutes = (options: HrisOptions): ReadonlyArray<Route> => {
  const context = new HrisContext(options)
  return [...directoryRoutes(context), ...employeeRoutes(context), ...tableRoutes(context), ...employeeFileRoutes(context), ...metadataRoutes(context), ...timeOffRoutes(context)]
}

/** BambooHR's 404: an empty body, the reason in a header. */
export const hrisNotFound = (ctx: Ctx): void => {
  ctx.res.writeHead(404, { "content-length": "0", "x-bamboohr-error-message": "Not found" })
  ctx.res.end()
}
