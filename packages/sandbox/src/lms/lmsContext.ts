import type { Clock } from "../clock.js"
import { basicAuth } from "../http/basicAuth.js"
import { guardedRoutes, type Handler, type Route } from "../router.js"
import type { LmsCourse, LmsState, LmsUser } from "./data.js"
import { unixSeconds } from "./dates.js"
import { invalidRequest, lmsError } from "./errors.js"
import { LmsViews } from "./views.js"

export interface LmsOptions {
  readonly apiKey: string
  /** Used in the avatar and login-key URLs of the answers. */
  readonly domain: string
  readonly state: () => LmsState
  readonly clock: Clock
}

/** What every LMS resource module shares: the current data, the clock, lookups and the views. */
export class LmsContext {
  /** A route under `/api/v1`, behind TalentLMS's Basic authentication (the API key as user), with its rate-limit headers. */
  readonly route: (method: string, pattern: string, handler: Handler) => Route

  constructor(private readonly options: LmsOptions) {
    this.route = guardedRoutes({
      prefix: "/api/v1",
      guard: (ctx) => {
        const credentials = basicAuth(ctx.req)
        if (credentials === undefined || credentials.user !== options.apiKey) throw lmsError(401, "authentication_error", "Invalid API key provided")
        ctx.res.setHeader("x-ratelimit-limit", "2000")
        ctx.res.setHeader("x-ratelimit-remaining", "1999")
        ctx.res.setHeader("x-ratelimit-reset", unixSeconds(options.clock.now() + 3600000))
      }
    })
  }

  /** Read on each use: a sandbox reset replaces the data. */
  get state(): LmsState {
    return this.options.state()
  }

  /** The time of a write (the logical clock moves on by one step). */
  tick(): number {
    return this.options.clock.tick()
  }

  views(): LmsViews {
    return new LmsViews(this.state, `https://${this.options.domain}`)
  }

  user(rawId: string | undefined): LmsUser {
    const user = this.state.users.get(Number(rawId))
    if (user === undefined) throw invalidRequest(404, "The requested user does not exist")
    return user
  }

  course(rawId: string | undefined): LmsCourse {
    const course = this.state.courses.get(Number(rawId))
    if (course === undefined) throw invalidRequest(404, "The requested course does not exist")
    return course
  }
}
