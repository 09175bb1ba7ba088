import type { Clock } from "../clock.js"
import { guardedRoutes, type Handler, type Route } from "../router.js"
import type { RecruiteeState } from "./data.js"
import { recruiteeError, recruiteeUnauthorized } from "./errors.js"

export interface RecruiteeOptions {
  readonly state: () => RecruiteeState
  readonly clock: Clock
  readonly apiToken: string
}

/**
 * What the Recruitee resource modules share: routes under `/c/{company_id}` behind the personal API token
 * ("Authorization: Bearer <token>", docs.recruitee.com/reference/getting-started). The company is its id or
 * its subdomain ("A company subdomain can also be used", /reference/candidates-get); another company is
 * not found.
 */
export class RecruiteeContext {
  readonly route: (method: string, pattern: string, handler: Handler) => Route

  constructor(private readonly options: RecruiteeOptions) {
    this.route = guardedRoutes({
      prefix: "/c/:company",
      guard: (ctx, params) => {
        const header = ctx.req.headers.authorization ?? ""
        if (header !== `Bearer ${options.apiToken}`) throw recruiteeUnauthorized(header.startsWith("Bearer "))
        if (params["company"] !== this.state.companyId && params["company"] !== "sandbox") throw recruiteeError(404, "Company not found")
      }
    })
  }

  /** Read on each use: a sandbox reset replaces the data. */
  get state(): RecruiteeState {
    return this.options.state()
  }

  tick(): number {
    return this.options.clock.tick()
  }
}
