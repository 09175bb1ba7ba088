import type { Clock } from "../clock.js"
import { basicAuth } from "../http/basicAuth.js"
import type { Ctx } from "../http/ctx.js"
import { HttpError } from "../http/httpError.js"
import { sendJson } from "../http/responses.js"
import { guardedRoutes, type Route } from "../router.js"
import type { Enrollment, LmsCourse, LmsState, LmsUser } from "./data.js"

/** The LMS routes, modeled on the TalentLMS API v1 (`/api/v1/...`). */

export interface LmsOptions {
  readonly apiKey: string
  /** Used in the avatar and login-key URLs of the answers. */
  readonly domain: string
  readonly state: () => LmsState
  readonly clock: Clock
}

const lmsError = (status: number, type: string, message: string): HttpError => new HttpError(status, { error: { type, message } })

/** TalentLMS writes timestamps as "DD/MM/YYYY, HH:MM:SS" (UTC here). */
export const tlmsDate = (ms: number): string => {
  const d = new Date(ms)
  const p = (n: number): string => String(n).padStart(2, "0")
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}, ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`
}
const ts = (ms: number): string => String(Math.floor(ms / 1000))
const duration = (seconds: number): string => {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s}s` : `${s}s`
}
const FORMATTED = { not_attempted: "Not attempted", incomplete: "In progress", completed: "Completed" } as const

export const lmsRoutes = (o: LmsOptions): ReadonlyArray<Route> => {
  const S = (): LmsState => o.state()
  const site = `https://${o.domain}`

  const r = guardedRoutes({
    prefix: "/api/v1",
    guard: (ctx) => {
      const creds = basicAuth(ctx.req)
      if (creds === undefined || creds.user !== o.apiKey) throw lmsError(401, "authentication_error", "Invalid API key provided")
      ctx.res.setHeader("x-ratelimit-limit", "2000")
      ctx.res.setHeader("x-ratelimit-remaining", "1999")
      ctx.res.setHeader("x-ratelimit-reset", ts(o.clock.now() + 3600000))
    }
  })

  const userBase = (u: LmsUser): Record<string, unknown> => ({
    id: String(u.id),
    login: u.login,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    restrict_email: "0",
    user_type: u.user_type,
    timezone: u.timezone,
    language: u.language,
    status: u.status,
    deactivation_date: "",
    level: String(u.level),
    points: String(u.points),
    created_on: tlmsDate(u.created_on),
    last_updated: tlmsDate(u.last_updated),
    last_updated_timestamp: ts(u.last_updated),
    avatar: `${site}/pages/images/avatar/${u.id}.png`,
    bio: u.bio,
    login_key: `${site}/index/autologin/key:sandbox${u.id}`
  })

  const courseBase = (c: LmsCourse): Record<string, unknown> => ({
    id: String(c.id),
    name: c.name,
    code: c.code,
    category_id: String(c.category_id),
    description: c.description,
    price: c.price,
    status: c.status,
    creation_date: tlmsDate(c.creation_date),
    last_update_on: tlmsDate(c.last_update_on),
    creator_id: String(c.creator_id),
    hide_from_catalog: "0",
    time_limit: "0",
    start_datetime: null,
    expiration_datetime: null,
    level: null,
    shared: "0",
    shared_url: "",
    avatar: `${site}/pages/images/course/${c.id}.png`,
    big_avatar: `${site}/pages/images/course/${c.id}_big.png`,
    certification: c.certification,
    certification_duration: c.certification_duration
  })

  const progress = (e: Enrollment): Record<string, unknown> => ({
    enrolled_on: tlmsDate(e.enrolled_on),
    enrolled_on_timestamp: ts(e.enrolled_on),
    completed_on: e.completed_on === null ? "" : tlmsDate(e.completed_on),
    completed_on_timestamp: e.completed_on === null ? "" : ts(e.completed_on),
    completion_percentage: String(e.completion_percentage),
    expired_on: "",
    expired_on_timestamp: null,
    total_time: duration(e.total_time_seconds),
    total_time_seconds: e.total_time_seconds
  })

  const userDetail = (u: LmsUser): Record<string, unknown> => {
    const s = S()
    const enrollments = s.enrollments.filter((e) => e.user_id === u.id)
    return {
      ...userBase(u),
      courses: enrollments.map((e) => {
        const c = s.courses.get(e.course_id) as LmsCourse
        return {
          id: String(c.id),
          name: c.name,
          role: e.role,
          ...progress(e),
          completion_status: e.completion_status,
          completion_status_formatted: FORMATTED[e.completion_status],
          last_accessed_unit_url: e.completion_status === "not_attempted" ? "" : `${site}/unit/view/id:${c.units[0]?.id ?? 0}`
        }
      }),
      branches: s.branches.filter((b) => u.branch_ids.includes(b.id)).map((b) => ({ id: String(b.id), name: b.name })),
      groups: s.groups.filter((g) => u.group_ids.includes(g.id)).map((g) => ({ id: String(g.id), name: g.name })),
      certifications: enrollments
        .filter((e) => e.completion_status === "completed" && (s.courses.get(e.course_id) as LmsCourse).certification !== "")
        .map((e) => {
          const c = s.courses.get(e.course_id) as LmsCourse
          return {
            course_id: String(c.id),
            course_name: c.name,
            unique_id: `${c.id}-${u.id}-sandbox`,
            issued_date: tlmsDate(e.completed_on as number),
            issued_date_timestamp: ts(e.completed_on as number),
            expiration_date: "",
            expiration_date_timestamp: "",
            download_url: `${site}/user/downloadcertification/course_id:${c.id},user_id:${u.id}`,
            public_url: `${site}/certification/${c.id}-${u.id}`
          }
        }),
      badges: []
    }
  }

  const courseDetail = (c: LmsCourse): Record<string, unknown> => {
    const s = S()
    return {
      ...courseBase(c),
      users: s.enrollments
        .filter((e) => e.course_id === c.id)
        .map((e) => {
          const u = s.users.get(e.user_id) as LmsUser
          return { id: String(u.id), name: `${u.first_name.charAt(0)}. ${u.last_name}`, role: e.role, ...progress(e) }
        }),
      units: c.units.map((unit) => ({ id: String(unit.id), type: unit.type, name: unit.name, url: `${site}/unit/view/id:${unit.id}` })),
      rules: ["All units must be completed"],
      prerequisites: []
    }
  }

  const getUser = (raw: string | undefined): LmsUser => {
    const u = S().users.get(Number(raw))
    if (u === undefined) throw lmsError(404, "invalid_request_error", "The requested user does not exist")
    return u
  }
  const getCourse = (raw: string | undefined): LmsCourse => {
    const c = S().courses.get(Number(raw))
    if (c === undefined) throw lmsError(404, "invalid_request_error", "The requested course does not exist")
    return c
  }


  const body = (ctx: Ctx): Record<string, unknown> => {
    let b: unknown
    try {
      b = ctx.body()
    } catch {
      throw lmsError(400, "invalid_request_error", "The request body is not valid JSON")
    }
    if (typeof b !== "object" || b === null || Array.isArray(b)) throw lmsError(400, "invalid_request_error", "Expected a JSON object or form fields")
    return b as Record<string, unknown>
  }

  return [
    r("GET", "/users", (ctx) => sendJson(ctx.res, 200, [...S().users.values()].map(userBase))),
    r("GET", "/users/id::id", (ctx, p) => sendJson(ctx.res, 200, userDetail(getUser(p["id"])))),
    r("GET", "/users/email::email", (ctx, p) => {
      const u = [...S().users.values()].find((x) => x.email.toLowerCase() === (p["email"] ?? "").toLowerCase())
      if (u === undefined) throw lmsError(404, "invalid_request_error", "The requested user does not exist")
      sendJson(ctx.res, 200, userDetail(u))
    }),
    r("GET", "/courses", (ctx) => sendJson(ctx.res, 200, [...S().courses.values()].map(courseBase))),
    r("GET", "/courses/id::id", (ctx, p) => sendJson(ctx.res, 200, courseDetail(getCourse(p["id"])))),
    r("GET", "/categories", (ctx) => sendJson(ctx.res, 200, S().categories.map((c) => ({ id: String(c.id), name: c.name, price: c.price, parent_category_id: c.parent_category_id })))),
    r("POST", "/addusertocourse", (ctx) => {
      const b = body(ctx)
      if (b["user_id"] === undefined || b["user_id"] === "") throw lmsError(400, "invalid_request_error", "A required parameter is missing: user_id")
      if (b["course_id"] === undefined || b["course_id"] === "") throw lmsError(400, "invalid_request_error", "A required parameter is missing: course_id")
      const u = getUser(String(b["user_id"]))
      const c = getCourse(String(b["course_id"]))
      const role = b["role"] === undefined || b["role"] === "" ? "learner" : String(b["role"])
      if (role !== "learner" && role !== "instructor") throw lmsError(400, "invalid_request_error", "Invalid role; use learner or instructor")
      const s = S()
      if (s.enrollments.some((e) => e.user_id === u.id && e.course_id === c.id)) throw lmsError(400, "invalid_request_error", "The requested user is already enrolled in this course")
      const at = o.clock.tick()
      s.enrollments.push({ user_id: u.id, course_id: c.id, role, enrolled_on: at, completed_on: null, completion_status: "not_attempted", completion_percentage: 0, total_time_seconds: 0 })
      u.last_updated = at
      sendJson(ctx.res, 200, [{ user_id: String(u.id), course_id: String(c.id), role }])
    }),
    r("GET", "/removeuserfromcourse/course_id::course_id,user_id::user_id", (ctx, p) => {
      const u = getUser(p["user_id"])
      const c = getCourse(p["course_id"])
      const s = S()
      const i = s.enrollments.findIndex((e) => e.user_id === u.id && e.course_id === c.id)
      if (i < 0) throw lmsError(400, "invalid_request_error", "The requested user is not enrolled in this course")
      s.enrollments.splice(i, 1)
      u.last_updated = o.clock.tick()
      sendJson(ctx.res, 200, { user_id: String(u.id), course_id: String(c.id), course_name: c.name })
    }),
    r("GET", "/getuserstatusincourse/course_id::course_id,user_id::user_id", (ctx, p) => {
      const u = getUser(p["user_id"])
      const c = getCourse(p["course_id"])
      const e = S().enrollments.find((x) => x.user_id === u.id && x.course_id === c.id)
      if (e === undefined) throw lmsError(400, "invalid_request_error", "The requested user is not enrolled in this course")
      const done = Math.round((e.completion_percentage / 100) * c.units.length)
      sendJson(ctx.res, 200, {
        role: e.role,
        ...progress(e),
        completion_status: e.completion_status,
        units: c.units.map((unit, i) => {
          const complete = i < done
          const at = e.completed_on ?? e.enrolled_on + (i + 1) * 3600000
          return {
            id: String(unit.id),
            name: unit.name,
            type: unit.type,
            completion_status: complete ? "Completed" : "Not attempted",
            completed_on: complete ? tlmsDate(at) : "",
            completed_on_timestamp: complete ? ts(at) : "",
            score: complete && unit.type === "Test" ? "85.00" : null,
            total_time: complete ? duration(Math.floor(e.total_time_seconds / Math.max(1, done))) : "",
            total_time_seconds: complete ? Math.floor(e.total_time_seconds / Math.max(1, done)) : 0
          }
        })
      })
    })
  ]
}

export const lmsNotFound = (ctx: Ctx): void => sendJson(ctx.res, 404, { error: { type: "invalid_request_error", message: "Invalid API call" } })
