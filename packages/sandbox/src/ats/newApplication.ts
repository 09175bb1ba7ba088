import type { Ctx } from "../http/ctx.js"
import { APPLICATION_ATTACHMENT_TYPES, parseAttachment, saveAttachment, type ParsedAttachment } from "./attachmentUpload.js"
import type { AtsContext } from "./atsContext.js"
import type { ApplicationRec, AtsState, CandidateRec, JobRec } from "./data.js"
import { fullName } from "./data.js"
import { validationError } from "./errors.js"
import { intParam, type Body } from "./params.js"
import { parseReferrer, type Referrer } from "./userReferences.js"

/** A new application for a candidate or prospect, on its own or inside a new candidate. */

export interface ParsedApplication {
  readonly prospect: boolean
  readonly job: JobRec | undefined
  readonly sourceId: number | undefined
  readonly initialStage: number | undefined
  readonly referrer: Referrer | undefined
  readonly prospectOwnerId: number | undefined
  readonly attachments: ReadonlyArray<ParsedAttachment>
}

/** Validates a Greenhouse application body (candidate or prospect application); no writes. `prefix` places its fields in error answers. */
export const parseApplication = (state: AtsState, body: Body, prefix = ""): ParsedApplication => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError(`${prefix || "application"} must be an object`, prefix || "body")
  const prospect = body["prospect"] === true || body["prospect"] === "true"
  const jobIdsRaw = prospect ? (body["job_ids"] ?? (body["job_id"] !== undefined ? [body["job_id"]] : [])) : [body["job_id"]]
  if (!Array.isArray(jobIdsRaw)) throw validationError("job_ids must be an array", `${prefix}job_ids`)
  const jobField = `${prefix}${prospect ? "job_ids" : "job_id"}`
  const jobIds = jobIdsRaw.map((jobId) => intParam(jobId, jobField, !prospect) as number)
  for (const jobId of jobIds) if (!state.jobs.has(jobId)) throw validationError(`Job ${jobId} was not found`, jobField)
  const job = jobIds[0] === undefined ? undefined : (state.jobs.get(jobIds[0]) as JobRec)
  const sourceId = intParam(body["source_id"], `${prefix}source_id`, false)
  if (sourceId !== undefined && !state.sources.has(sourceId)) throw validationError(`Source ${sourceId} was not found`, `${prefix}source_id`)
  const initialStage = intParam(body["initial_stage_id"], `${prefix}initial_stage_id`, false)
  if (initialStage !== undefined && (prospect || job === undefined || !job.stage_ids.includes(initialStage))) throw validationError("initial_stage_id must be a stage of the job", `${prefix}initial_stage_id`)
  const prospectOwnerId = intParam(body["prospect_owner_id"], `${prefix}prospect_owner_id`, false)
  if (prospectOwnerId !== undefined && !state.users.has(prospectOwnerId)) throw validationError(`User ${prospectOwnerId} was not found`, `${prefix}prospect_owner_id`)
  const attachmentsRaw = body["attachments"]
  if (attachmentsRaw !== undefined && !Array.isArray(attachmentsRaw)) throw validationError("attachments must be an array", `${prefix}attachments`)
  const attachments = ((attachmentsRaw as Array<unknown> | undefined) ?? []).map((attachment) => parseAttachment(attachment, APPLICATION_ATTACHMENT_TYPES))
  return { prospect, job, sourceId, initialStage, referrer: parseReferrer(state, body["referrer"]), prospectOwnerId, attachments }
}

/** Creates a (validated) application for a candidate, with its attachments. */
export const createApplication = (context: AtsContext, ctx: Ctx, candidate: CandidateRec, parsed: ParsedApplication, at: number, userId: number | null): ApplicationRec => {
  const state = context.state
  const { prospect, job, sourceId, initialStage, referrer } = parsed
  const id = state.next.application++
  const application: ApplicationRec = {
    id,
    candidate_id: candidate.id,
    prospect,
    applied_at: at,
    rejected_at: null,
    last_activity_at: at,
    location: null,
    source_id: sourceId ?? null,
    credited_to_id: referrer?.userId ?? null,
    referrer: referrer?.raw ?? null,
    rejection_reason_id: null,
    rejection_details: null,
    job_id: job?.id ?? null,
    job_post_id: null,
    status: "active",
    stage_id: prospect || job === undefined ? null : (initialStage ?? (job.stage_ids[0] as number)),
    answers: [],
    custom_fields: {},
    prospect_pool: null,
    prospect_stage: null,
    prospect_owner_id: prospect ? (parsed.prospectOwnerId ?? userId) : null
  }
  state.applications.set(id, application)
  candidate.application_ids.push(id)
  const addedBy = context.userName(userId)
  const body = prospect ? `${fullName(candidate)} was added as a prospect by ${addedBy}` : `${fullName(candidate)} was added to ${job?.name ?? "a job"} by ${addedBy}`
  context.recordActivity(at, candidate.id, id, "application_created", body, userId, { status: { from: null, to: "active" } })
  for (const attachment of parsed.attachments) saveAttachment(context, ctx, attachment, candidate, id, at, userId)
  return application
}
