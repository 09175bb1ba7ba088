import type { Clock } from "../clock.js"
import type { FileStore } from "../files.js"
import { basicAuth } from "../http/basicAuth.js"
import type { Ctx } from "../http/ctx.js"
import { HttpError } from "../http/httpError.js"
import { paginate } from "../http/paginate.js"
import { guardedRoutes, type Handler, type Route } from "../router.js"
import type { ActivityRec, ActivityType, ApplicationRec, AtsState, CandidateRec, JobRec } from "./data.js"
import { fullName } from "./data.js"
import { notFoundError, validationError } from "./errors.js"
import { pathId } from "./params.js"
import { AtsViews } from "./views.js"

export interface AtsOptions {
  readonly apiKey: string
  /** Writes need an `On-Behalf-Of: {user id}` header, as in Greenhouse (default true). */
  readonly requireOnBehalfOf: boolean
  readonly state: () => AtsState
  readonly files: () => FileStore
  readonly clock: Clock
}

/** What every ATS resource module shares: the current data, lookups, the acting user and the activity log. */
export class AtsContext {
  /** A route behind Greenhouse's Basic authentication (the API key as user, no password). */
  readonly route: (method: string, pattern: string, handler: Handler) => Route

  constructor(private readonly options: AtsOptions) {
    this.route = guardedRoutes({
      guard: (ctx) => {
        const credentials = basicAuth(ctx.req)
        if (credentials === undefined || credentials.user !== options.apiKey || credentials.password !== "") {
          throw new HttpError(401, { message: "Invalid Basic Auth credentials" }, { "www-authenticate": 'Basic realm="Harvest API"' })
        }
        ctx.res.setHeader("x-ratelimit-limit", "50")
        ctx.res.setHeader("x-ratelimit-remaining", "49")
      }
    })
  }

  /** Read on each use: a sandbox reset replaces the data. */
  get state(): AtsState {
    return this.options.state()
  }

  get files(): FileStore {
    return this.options.files()
  }

  /** The time of a write (the logical clock moves on by one step). */
  tick(): number {
    return this.options.clock.tick()
  }

  views(ctx: Ctx): AtsViews {
    return new AtsViews(this.state, ctx.origin)
  }

  page<T>(ctx: Ctx, items: Array<T>): Array<T> {
    return paginate(ctx, items, { invalid: validationError })
  }

  /** The acting user of a write: the On-Behalf-Of header (required unless configured off). */
  actor(ctx: Ctx): number | null {
    const raw = ctx.req.headers["on-behalf-of"]
    const value = Array.isArray(raw) ? raw[0] : raw
    if (value === undefined || value.trim() === "") {
      if (this.options.requireOnBehalfOf) throw validationError("On-Behalf-Of header is required (a Greenhouse user id)", "On-Behalf-Of")
      return null
    }
    const id = Number(value)
    if (!Number.isInteger(id) || !this.state.users.has(id)) throw validationError(`On-Behalf-Of user ${value} was not found`, "On-Behalf-Of")
    return id
  }

  /** How activity texts name a user; writes without one are "the API". */
  userName(id: number | null): string {
    const user = id === null ? undefined : this.state.users.get(id)
    return user === undefined ? "the API" : fullName(user)
  }

  application(rawId: string | undefined): ApplicationRec {
    return found(this.state.applications.get(pathId(rawId)))
  }

  candidate(rawId: string | undefined): CandidateRec {
    return found(this.state.candidates.get(pathId(rawId)))
  }

  job(rawId: string | undefined): JobRec {
    return found(this.state.jobs.get(pathId(rawId)))
  }

  /** Stamps a change: the application's and candidate's activity times move to `at`. */
  touch(candidateId: number, applicationId: number | null, at: number): void {
    const candidate = this.state.candidates.get(candidateId)
    if (candidate !== undefined) {
      candidate.updated_at = at
      candidate.last_activity = at
    }
    if (applicationId !== null) {
      const application = this.state.applications.get(applicationId)
      if (application !== undefined) application.last_activity_at = at
    }
  }

  /** Adds an entry to the activity feed and touches the records it is about. */
  recordActivity(
    at: number,
    candidateId: number,
    applicationId: number | null,
    type: ActivityType,
    body: string,
    userId: number | null,
    changes: ActivityRec["changes"] = {}
  ): void {
    const state = this.state
    const id = state.next.activity++
    state.activities.set(id, { id, candidate_id: candidateId, application_id: applicationId, created_at: at, subject: null, body, user_id: userId, type, changes })
    this.touch(candidateId, applicationId, at)
  }
}

/** The record, or a 404. */
export const found = <T>(record: T | undefined): T => {
  if (record === undefined) throw notFoundError()
  return record
}
