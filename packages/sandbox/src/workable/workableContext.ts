import type { Clock } from "../clock.js"
import { guardedRoutes, type Handler, type Route } from "../router.js"
import type { WorkableCandidate, WorkableJob, WorkableState } from "./data.js"
import { notFound, workableError } from "./errors.js"
import { WorkableViews } from "./views.js"

/** Account tokens get 10 requests per 10 seconds (https://workable.readme.io/reference/rate-limits). */
const LIMIT = 10
const INTERVAL_MS = 10_000

/** What every Workable resource module shares: the data, the clock, lookups and the views. */
export class WorkableContext {
  /** A route under `/spi/v3`, behind the bearer token, answering the rate-limit headers. */
  readonly route: (method: string, pattern: string, handler: Handler) => Route
  private window = { start: 0, used: 0 }

  constructor(
    private readonly currentState: () => WorkableState,
    readonly clock: Clock,
    apiToken: string
  ) {
    this.route = guardedRoutes({
      prefix: "/spi/v3",
      guard: (ctx) => {
        // "All responses will include" X-Rate-Limit-Limit, -Remaining and -Reset (the next
        // interval's timestamp). Counted per 10-second interval of real time; never refused
        // here: a 429 comes from the sandbox's faults.
        const now = Date.now()
        const start = now - (now % INTERVAL_MS)
        if (start !== this.window.start) this.window = { start, used: 0 }
        this.window.used++
        ctx.res.setHeader("x-rate-limit-limit", String(LIMIT))
        ctx.res.setHeader("x-rate-limit-remaining", String(Math.max(0, LIMIT - this.window.used)))
        ctx.res.setHeader("x-rate-limit-reset", String((start + INTERVAL_MS) / 1000))
        const header = ctx.req.headers.authorization ?? ""
        const match = /^Bearer\s*(.+)$/i.exec(header)
        if (match === null || match[1]!.trim() !== apiToken) throw workableError(401, "Not authorized")
      }
    })
  }

  /** Read on each use: a sandbox reset replaces the data. */
  get state(): WorkableState {
    return this.currentState()
  }

  views(): WorkableViews {
    return new WorkableViews(this.state)
  }

  candidate(id: string | undefined): WorkableCandidate {
    const candidate = this.state.candidates.find((c) => c.id === id)
    if (candidate === undefined) throw notFound()
    return candidate
  }

  job(shortcode: string | undefined): WorkableJob {
    const job = this.state.jobs.find((j) => j.shortcode === shortcode)
    if (job === undefined) throw notFound()
    return job
  }
}
