import { bodyObject } from "../http/bodyObject.js"
import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { durationText, tlmsDate, unixSeconds } from "./dates.js"
import { invalidRequest } from "./errors.js"
import type { LmsContext } from "./lmsContext.js"

/** Enrolling a user in a course, removing them, and their progress in it unit by unit. */

/** The body as an object: TalentLMS takes JSON or form fields. */
const requestObject = (ctx: Ctx): Record<string, unknown> => {
  const body = bodyObject(ctx, () => invalidRequest(400, "The request body is not valid JSON"))
  if (body === undefined) throw invalidRequest(400, "Expected a JSON object or form fields")
  return body
}

const missing = (value: unknown): boolean => value === undefined || value === ""

export const enrollmentRoutes = (context: LmsContext): ReadonlyArray<Route> => [
  context.route("POST", "/addusertocourse", (ctx) => {
    const body = requestObject(ctx)
    if (missing(body["user_id"])) throw invalidRequest(400, "A required parameter is missing: user_id")
    if (missing(body["course_id"])) throw invalidRequest(400, "A required parameter is missing: course_id")
    const user = context.user(String(body["user_id"]))
    const course = context.course(String(body["course_id"]))
    const role = missing(body["role"]) ? "learner" : String(body["role"])
    if (role !== "learner" && role !== "instructor") throw invalidRequest(400, "Invalid role; use learner or instructor")
    const state = context.state
    if (state.enrollments.some((enrollment) => enrollment.user_id === user.id && enrollment.course_id === course.id)) throw invalidRequest(400, "The requested user is already enrolled in this course")
    const at = context.tick()
    state.enrollments.push({ user_id: user.id, course_id: course.id, role, enrolled_on: at, completed_on: null, completion_status: "not_attempted", completion_percentage: 0, total_time_seconds: 0 })
    user.last_updated = at
    sendJson(ctx.res, 200, [{ user_id: String(user.id), course_id: String(course.id), role }])
  }),
  // TalentLMS removes with a GET.
  context.route("GET", "/removeuserfromcourse/course_id::course_id,user_id::user_id", (ctx, params) => {
    const user = context.user(params["user_id"])
    const course = context.course(params["course_id"])
    const state = context.state
    const index = state.enrollments.findIndex((enrollment) => enrollment.user_id === user.id && enrollment.course_id === course.id)
    if (index < 0) throw invalidRequest(400, "The requested user is not enrolled in this course")
    state.enrollments.splice(index, 1)
    user.last_updated = context.tick()
    sendJson(ctx.res, 200, { user_id: String(user.id), course_id: String(course.id), course_name: course.name })
  }),
  context.route("GET", "/getuserstatusincourse/course_id::course_id,user_id::user_id", (ctx, params) => {
    const user = context.user(params["user_id"])
    const course = context.course(params["course_id"])
    const enrollment = context.state.enrollments.find((candidate) => candidate.user_id === user.id && candidate.course_id === course.id)
    if (enrollment === undefined) throw invalidRequest(400, "The requested user is not enrolled in this course")
    // The data keeps no per-unit progress: the first `done` units count as completed (at the
    // enrollment's completion, else an hour apart) and share the time spent equally.
    const done = Math.round((enrollment.completion_percentage / 100) * course.units.length)
    sendJson(ctx.res, 200, {
      role: enrollment.role,
      ...context.views().progress(enrollment),
      completion_status: enrollment.completion_status,
      units: course.units.map((unit, index) => {
        const complete = index < done
        const at = enrollment.completed_on ?? enrollment.enrolled_on + (index + 1) * 3600000
        return {
          id: String(unit.id),
          name: unit.name,
          type: unit.type,
          completion_status: complete ? "Completed" : "Not attempted",
          completed_on: complete ? tlmsDate(at) : "",
          completed_on_timestamp: complete ? unixSeconds(at) : "",
          score: complete && unit.type === "Test" ? "85.00" : null,
          total_time: complete ? durationText(Math.floor(enrollment.total_time_seconds / Math.max(1, done))) : "",
          total_time_seconds: complete ? Math.floor(enrollment.total_time_seconds / Math.max(1, done)) : 0
        }
      })
    })
  })
]
