/*
 * The hand-written mapping of one Greenhouse application into the unified shape: the fields the
 * shipped Greenhouse connector maps (greenhouse/1.3.0.yaml, `application_fields`), written as a
 * user would write them. Used by handWrittenProxy.mjs, and by the mapping micro-benchmark as the
 * yardstick for the engine.
 */

const str = (value) => (value === null || value === undefined ? null : String(value))
const iso = (value) => (typeof value === "string" ? new Date(value).toISOString() : null)
const statusEnum = (status) => ({
  value: status === "active" || status === "rejected" || status === "hired" || status === "converted" ? status : "unmapped_value",
  source_value: status
})
const rejectedType = (name) =>
  name === "We rejected them" ? "rejected_by_organization"
    : name === "They rejected us" ? "rejected_by_candidate"
    : name === "None specified" ? "unknown"
    : "unmapped_value"

export const mapApplication = (a) => {
  const stage = a.current_stage ? { id: String(a.current_stage.id), remote_id: String(a.current_stage.id), name: a.current_stage.name } : null
  const stageId = str(a.current_stage?.id)
  const jobId = str(a.jobs?.[0]?.id)
  const reason = a.rejection_reason
  const reasonId = str(reason?.id)
  return {
    id: String(a.id),
    remote_id: String(a.id),
    candidate_id: str(a.candidate_id),
    remote_candidate_id: str(a.candidate_id),
    job_id: jobId,
    remote_job_id: jobId,
    job_posting_id: str(a.job_post_id),
    remote_job_posting_id: str(a.job_post_id),
    interview_stage: stage,
    interview_stage_id: stageId,
    remote_interview_stage_id: stageId,
    application_stage: stage,
    application_stage_id: stageId,
    remote_application_stage_id: stageId,
    rejected_reason: reason?.name ?? null,
    rejected_reason_id: reasonId,
    remote_rejected_reason_id: reasonId,
    rejected_reason_ids: reason ? [reasonId] : [],
    remote_rejected_reason_ids: reason ? [reasonId] : [],
    rejected_reasons: reason
      ? [{
        id: reasonId,
        remote_id: reasonId,
        label: reason.name,
        type: reason.type?.name,
        rejected_reason_type: { value: rejectedType(reason.type?.name), source_value: reason.type?.name }
      }]
      : [],
    rejected_at: iso(a.rejected_at),
    application_status: statusEnum(a.status),
    status: statusEnum(a.status),
    source: a.source ? { id: String(a.source.id), remote_id: String(a.source.id), name: a.source.public_name } : null,
    created_at: iso(a.applied_at),
    updated_at: iso(a.last_activity_at)
  }
}
