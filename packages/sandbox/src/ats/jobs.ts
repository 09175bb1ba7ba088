import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import { applyDefinedFields } from "./customFieldDefinitions.js"
import type { JobPostRec, JobRec, StageRec } from "./data.js"
import { validationError } from "./errors.js"
import { ID_BASE } from "./idBase.js"
import { bodyObject, createdAndUpdatedFilters, intParam, pathId, stringParam, timeFilter } from "./params.js"

/**
 * Jobs (list, read, create from a template job, update), their interview stages and job posts.
 * A new job copies its template's stages, interview steps and job posts under ids of its own,
 * counted from its position as generated jobs' are.
 */

export const jobRoutes = (context: AtsContext): ReadonlyArray<Route> => {
  const department = (value: unknown): JobRec["department"] => {
    if (value === null || value === "") return null
    const record = context.state.departments.get(intParam(value, "department_id", true) as number)
    if (record === undefined) throw validationError(`Department ${String(value)} was not found`, "department_id")
    return { id: record.id, name: record.name }
  }

  const offices = (value: unknown): JobRec["offices"] => {
    if (!Array.isArray(value)) throw validationError("office_ids must be an array", "office_ids")
    return value.map((id) => {
      const record = context.state.offices.get(intParam(id, "office_ids", true) as number)
      if (record === undefined) throw validationError(`Office ${String(id)} was not found`, "office_ids")
      return { id: record.id, name: record.name }
    })
  }

  /** The new job's stages: the template's, with the ids a generated job at `index` would have. */
  const copyStages = (template: JobRec, jobId: number, index: number, at: number): Array<number> =>
    template.stage_ids.map((stageId, stageIndex) => {
      const stage = context.state.stages.get(stageId) as StageRec
      const id = ID_BASE.stage + index * 10 + stageIndex
      context.state.stages.set(id, {
        ...stage,
        id,
        job_id: jobId,
        created_at: at,
        updated_at: at,
        interviews: stage.interviews.map((step, stepIndex) => ({
          ...step,
          id: ID_BASE.step + index * 100 + stageIndex * 10 + stepIndex,
          interviewer_ids: [...step.interviewer_ids],
          kit_id: 90000 + index * 100 + stageIndex * 10 + stepIndex,
          questions: step.questions.map((question) => ({ ...question, id: 110000 + index * 100 + stageIndex * 10 + stepIndex }))
        }))
      })
      return id
    })

  const createJob = (ctx: Ctx): JobRec => {
    context.actor(ctx)
    const body = bodyObject(ctx)
    const state = context.state
    const template = state.jobs.get(intParam(body["template_job_id"], "template_job_id", true) as number)
    if (template === undefined) throw validationError("template_job_id must be an existing job", "template_job_id")
    const openings = intParam(body["number_of_openings"], "number_of_openings", true) as number
    if (openings < 1) throw validationError("number_of_openings must be at least 1", "number_of_openings")
    const openingIds = body["opening_ids"]
    if (openingIds !== undefined && (!Array.isArray(openingIds) || openingIds.length !== openings)) {
      throw validationError("opening_ids must have number_of_openings entries", "opening_ids")
    }
    const name = stringParam(body["job_name"], "job_name", false) ?? `Copy Of ${template.name}`
    const postName = stringParam(body["job_post_name"], "job_post_name", false)
    const requisitionId = stringParam(body["requisition_id"], "requisition_id", false)
    const jobDepartment = "department_id" in body ? department(body["department_id"]) : template.department
    const jobOffices = "office_ids" in body ? offices(body["office_ids"]) : template.offices.map((office) => ({ ...office }))
    // validated: from here on, writes only
    const at = context.tick()
    const id = state.next.job++
    const job: JobRec = {
      ...template,
      id,
      name,
      requisition_id: requisitionId ?? null,
      status: "draft",
      created_at: at,
      opened_at: at,
      closed_at: null,
      updated_at: at,
      department: jobDepartment,
      offices: jobOffices,
      stage_ids: copyStages(template, id, id - ID_BASE.job, at),
      custom_fields: { ...template.custom_fields },
      copied_from_id: template.id,
      opening_ids: Array.from({ length: openings }, (_, index) => (Array.isArray(openingIds) ? String(openingIds[index]) : null))
    }
    state.jobs.set(id, job)
    for (const post of [...state.jobPosts.values()].filter((candidate) => candidate.job_id === template.id)) {
      const postId = state.next.jobPost++
      state.jobPosts.set(postId, { ...post, id: postId, job_id: id, title: postName ?? post.title, live: false, first_published_at: null, created_at: at, updated_at: at })
    }
    return job
  }

  const updateJob = (ctx: Ctx, job: JobRec): JobRec => {
    context.actor(ctx)
    const body = bodyObject(ctx)
    const next: Partial<JobRec> = {}
    const name = stringParam(body["name"], "name", false)
    if (name !== undefined) {
      if (name.trim() === "") throw validationError("name can't be blank", "name")
      next.name = name
    }
    if (body["notes"] !== undefined) next.notes = stringParam(body["notes"], "notes", false) ?? null
    if (body["requisition_id"] !== undefined) next.requisition_id = stringParam(body["requisition_id"], "requisition_id", false) ?? null
    if (body["department_id"] !== undefined) next.department = department(body["department_id"])
    if (body["office_ids"] !== undefined) next.offices = offices(body["office_ids"])
    const customFields = { ...job.custom_fields }
    applyDefinedFields(customFields, body["custom_fields"], context.state.fieldDefinitions, "job")
    Object.assign(job, next, { custom_fields: customFields, updated_at: context.tick() })
    return job
  }

  const jobPostList = (ctx: Ctx, items: Array<JobPostRec>): Array<JobPostRec> => {
    let kept = items
    for (const flag of ["live", "active", "internal"] as const) {
      const value = ctx.query.get(flag)
      if (value !== null) kept = kept.filter((post) => post[flag] === (value === "true"))
    }
    return kept
  }

  return [
    context.route("GET", "/v1/jobs", (ctx) => {
      let items = [...context.state.jobs.values()]
      items = timeFilter(ctx, items, createdAndUpdatedFilters())
      for (const [param, matches] of [
        ["status", (job: JobRec, value: string) => job.status === value],
        ["requisition_id", (job: JobRec, value: string) => job.requisition_id === value],
        ["department_id", (job: JobRec, value: string) => String(job.department?.id) === value],
        ["office_id", (job: JobRec, value: string) => job.offices.some((office) => String(office.id) === value)]
      ] as const) {
        const value = ctx.query.get(param)
        if (value !== null) items = items.filter((job) => matches(job, value))
      }
      const views = context.views(ctx)
      sendJson(ctx.res, 200, context.page(ctx, items).map((job) => views.job(job)))
    }),
    context.route("POST", "/v1/jobs", (ctx) => sendJson(ctx.res, 201, context.views(ctx).job(createJob(ctx)))),
    context.route("GET", "/v1/jobs/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).job(context.job(params["id"])))),
    context.route("PATCH", "/v1/jobs/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).job(updateJob(ctx, context.job(params["id"]))))),
    context.route("GET", "/v1/jobs/:id/stages", (ctx, params) => {
      const job = context.job(params["id"])
      const views = context.views(ctx)
      sendJson(ctx.res, 200, job.stage_ids.map((id) => views.stage(context.state.stages.get(id) as StageRec)))
    }),
    context.route("GET", "/v1/jobs/:id/job_posts", (ctx, params) => {
      const job = context.job(params["id"])
      const views = context.views(ctx)
      sendJson(ctx.res, 200, jobPostList(ctx, [...context.state.jobPosts.values()].filter((post) => post.job_id === job.id)).map((post) => views.jobPost(post)))
    }),
    context.route("GET", "/v1/job_stages", (ctx) => {
      const views = context.views(ctx)
      const items = timeFilter(ctx, [...context.state.stages.values()], createdAndUpdatedFilters())
      sendJson(ctx.res, 200, context.page(ctx, items).map((stage) => views.stage(stage)))
    }),
    context.route("GET", "/v1/job_stages/:id", (ctx, params) => {
      const stage = found(context.state.stages.get(pathId(params["id"])))
      sendJson(ctx.res, 200, context.views(ctx).stage(stage))
    }),
    context.route("GET", "/v1/job_posts", (ctx) => {
      const views = context.views(ctx)
      const items = jobPostList(ctx, timeFilter(ctx, [...context.state.jobPosts.values()], createdAndUpdatedFilters()))
      sendJson(ctx.res, 200, context.page(ctx, items).map((post) => views.jobPost(post)))
    }),
    context.route("GET", "/v1/job_posts/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).jobPost(found(context.state.jobPosts.get(pathId(params["id"]))))))
  ]
}
