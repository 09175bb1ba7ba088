import type { Clock } from "../clock.js"
import type { Ctx } from "../http/ctx.js"
import { guardedRoutes, type Handler, type Route } from "../router.js"
import type { SmartRecruitersState, SrCandidate, SrJob, SrUser } from "./data.js"
import { srError } from "./errors.js"
import { SrViews } from "./views.js"

/** The "Rate Limiting" page: 10 requests a second, 8 concurrent (1 for GET /candidates), per credential. */
const RATE_LIMIT = 10

/**
 * What every SmartRecruiters resource module shares: the X-SmartToken guard with the rate-limit
 * headers SmartRecruiters sends on every answer, the current data, the clock and lookups.
 */
export class SrContext {
  readonly route: (method: string, pattern: string, handler: Handler) => Route
  /** Requests of the current wall-clock second, for X-RateLimit-Remaining (reported, not enforced). */
  private window = { second: 0, count: 0 }

  constructor(
    private readonly options: {
      readonly state: () => SmartRecruitersState
      readonly clock: Clock
      readonly apiKey: string
    }
  ) {
    this.route = guardedRoutes({
      guard: (ctx) => {
        this.rateLimitHeaders(ctx)
        // "API Key": the key goes in the X-SmartToken request header
        const token = ctx.req.headers["x-smarttoken"]
        if (typeof token !== "string" || token !== options.apiKey) throw srError(401, "UNAUTHORIZED", "No valid API credential provided")
      }
    })
  }

  private rateLimitHeaders(ctx: Ctx): void {
    const second = Math.floor(Date.now() / 1000)
    if (second !== this.window.second) this.window = { second, count: 0 }
    this.window.count++
    const concurrent = ctx.method === "GET" && ctx.path === "/candidates" ? 1 : 8
    ctx.res.setHeader("x-ratelimit-limit", String(RATE_LIMIT))
    ctx.res.setHeader("x-ratelimit-remaining", String(Math.max(0, RATE_LIMIT - this.window.count)))
    ctx.res.setHeader("x-ratelimit-concurrent-limit", String(concurrent))
    ctx.res.setHeader("x-ratelimit-concurrent-remaining", String(concurrent - 1))
  }

  /** Read on each use: a sandbox reset replaces the data. */
  get state(): SmartRecruitersState {
    return this.options.state()
  }

  /** The time of a write (the logical clock moves on by one step). */
  tick(): number {
    return this.options.clock.tick()
  }

  views(ctx: Ctx): SrViews {
    return new SrViews(this.state, ctx.origin)
  }

  candidate(id: string | undefined): SrCandidate {
    const candidate = this.state.candidates.get(id ?? "")
    if (candidate === undefined) throw srError(404, "CANDIDATE_NOT_FOUND", `Candidate ${id} not found`)
    return candidate
  }

  job(id: string | undefined): SrJob {
    const job = this.state.jobs.get(id ?? "")
    if (job === undefined) throw srError(404, "JOB_NOT_FOUND", `Job ${id} not found`)
    return job
  }

  user(id: string | undefined): SrUser {
    const user = this.state.users.get(id ?? "")
    if (user === undefined) throw srError(404, "USER_NOT_FOUND", `User ${id} not found`)
    return user
  }
}
