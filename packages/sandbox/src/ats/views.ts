import { iso } from "../clock.js"
import type {
  ActivityRec,
  ApplicationRec,
  AtsState,
  AttachmentRec,
  CandidateRec,
  DepartmentRec,
  EmailRec,
  FieldDefinitionRec,
  InterviewRec,
  JobPostRec,
  JobRec,
  NoteRec,
  OfferRec,
  OfficeRec,
  ScorecardRec,
  StageRec,
  UserRec
} from "./data.js"
import { fullName } from "./data.js"
import { keyedMeta } from "./customFieldDefinitions.js"

/** JSON shapes of the Greenhouse Harvest v1 API, built from the records. */

export const CANDIDATE_FIELDS: Record<string, { name: string; type: string }> = {
  desired_salary: { name: "Desired Salary", type: "short_text" },
  work_remotely: { name: "Work Remotely", type: "boolean" }
}

export const APPLICATION_FIELDS: Record<string, { name: string; type: string }> = {
  notice_period: { name: "Notice Period", type: "single_select" }
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms))

const keyed = (values: Record<string, unknown>, meta: Record<string, { name: string; type: string }>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, { name: meta[key]?.name ?? key, type: meta[key]?.type ?? "short_text", value }])
  )

export class AtsViews {
  constructor(
    private readonly state: AtsState,
    /** Origin for attachment URLs (`{origin}/files/{id}`). */
    private readonly origin: string
  ) {}

  userRef(id: number | null): Record<string, unknown> | null {
    if (id === null) return null
    const u = this.state.users.get(id)
    if (u === undefined) return null
    return { id: u.id, first_name: u.first_name, last_name: u.last_name, name: fullName(u), employee_id: u.employee_id }
  }

  user(u: UserRec): Record<string, unknown> {
    return {
      id: u.id,
      name: fullName(u),
      first_name: u.first_name,
      last_name: u.last_name,
      primary_email_address: u.email,
      updated_at: iso(u.updated_at),
      created_at: iso(u.created_at),
      disabled: u.disabled,
      site_admin: u.site_admin,
      emails: [u.email],
      employee_id: u.employee_id,
      linked_candidate_ids: [],
      offices: [],
      departments: []
    }
  }

  attachment(a: AttachmentRec): Record<string, unknown> {
    return { filename: a.filename, url: `${this.origin}/files/${a.file_id}`, type: a.type, created_at: iso(a.created_at) }
  }

  application(a: ApplicationRec): Record<string, unknown> {
    const s = this.state
    const source = a.source_id === null ? undefined : s.sources.get(a.source_id)
    const reason = a.rejection_reason_id === null ? undefined : s.reasons.get(a.rejection_reason_id)
    const job = a.job_id === null ? undefined : s.jobs.get(a.job_id)
    const stage = a.stage_id === null ? undefined : s.stages.get(a.stage_id)
    const owner = a.prospect_owner_id === null ? undefined : s.users.get(a.prospect_owner_id)
    return {
      id: a.id,
      candidate_id: a.candidate_id,
      prospect: a.prospect,
      applied_at: iso(a.applied_at),
      rejected_at: isoOrNull(a.rejected_at),
      last_activity_at: iso(a.last_activity_at),
      location: a.location === null ? null : { address: a.location },
      source: source === undefined ? null : { id: source.id, public_name: source.name },
      credited_to: this.userRef(a.credited_to_id),
      rejection_reason: reason === undefined ? null : { id: reason.id, name: reason.name, type: { ...reason.type } },
      rejection_details: a.rejection_details,
      jobs: job === undefined ? [] : [{ id: job.id, name: job.name }],
      job_post_id: a.job_post_id,
      status: a.status,
      current_stage: stage === undefined ? null : { id: stage.id, name: stage.name },
      answers: a.answers.map((x) => ({ ...x })),
      prospective_office: null,
      prospective_department: null,
      prospect_detail: {
        prospect_pool: a.prospect_pool,
        prospect_stage: a.prospect_stage,
        prospect_owner: owner === undefined ? null : { id: owner.id, name: fullName(owner) }
      },
      custom_fields: { ...a.custom_fields },
      keyed_custom_fields: keyed(a.custom_fields, APPLICATION_FIELDS),
      attachments: s.attachments.filter((x) => x.application_id === a.id).map((x) => this.attachment(x))
    }
  }

  candidate(c: CandidateRec): Record<string, unknown> {
    const s = this.state
    return {
      id: c.id,
      first_name: c.first_name,
      last_name: c.last_name,
      company: c.company,
      title: c.title,
      created_at: iso(c.created_at),
      updated_at: iso(c.updated_at),
      last_activity: iso(c.last_activity),
      is_private: c.is_private,
      photo_url: null,
      attachments: s.attachments.filter((x) => x.candidate_id === c.id).map((x) => this.attachment(x)),
      application_ids: [...c.application_ids],
      phone_numbers: c.phone_numbers.map((x) => ({ ...x })),
      addresses: c.addresses.map((x) => ({ ...x })),
      email_addresses: c.email_addresses.map((x) => ({ ...x })),
      website_addresses: c.website_addresses.map((x) => ({ ...x })),
      social_media_addresses: c.social_media_addresses.map((x) => ({ ...x })),
      recruiter: this.userRef(c.recruiter_id),
      coordinator: this.userRef(c.coordinator_id),
      can_email: c.can_email,
      tags: [...c.tags],
      applications: c.application_ids.flatMap((id) => {
        const a = s.applications.get(id)
        return a === undefined ? [] : [this.application(a)]
      }),
      educations: c.educations.map((x) => ({ ...x })),
      employments: c.employments.map((x) => ({ ...x })),
      linked_user_ids: [],
      custom_fields: { ...c.custom_fields },
      keyed_custom_fields: keyed(c.custom_fields, CANDIDATE_FIELDS)
    }
  }

  job(j: JobRec): Record<string, unknown> {
    return {
      id: j.id,
      name: j.name,
      requisition_id: j.requisition_id,
      notes: j.notes,
      confidential: j.confidential,
      status: j.status,
      created_at: iso(j.created_at),
      opened_at: iso(j.opened_at),
      closed_at: isoOrNull(j.closed_at),
      updated_at: iso(j.updated_at),
      is_template: false,
      copied_from_id: j.copied_from_id,
      departments: j.department === null ? [] : [this.department(this.state.departments.get(j.department.id) ?? j.department)],
      offices: j.offices.map((office) => this.office(this.state.offices.get(office.id) ?? { ...office, location: office.name })),
      hiring_team: {
        hiring_managers: [{ ...this.userRef(j.hiring_manager_id), responsible: true }],
        recruiters: [{ ...this.userRef(j.recruiter_id), responsible: true }],
        coordinators: [],
        sourcers: []
      },
      openings: j.opening_ids.map((openingId, index) => ({
        id: 30000 + j.id + index * 100000,
        opening_id: openingId,
        status: j.status === "closed" ? "closed" : "open",
        opened_at: iso(j.opened_at),
        closed_at: isoOrNull(j.closed_at),
        application_id: null,
        close_reason: null
      })),
      custom_fields: { ...j.custom_fields },
      keyed_custom_fields: keyed(j.custom_fields, keyedMeta(this.state.fieldDefinitions, "job"))
    }
  }

  department(d: DepartmentRec): Record<string, unknown> {
    return { id: d.id, name: d.name, parent_id: null, parent_department_external_id: null, child_ids: [], child_department_external_ids: [], external_id: null }
  }

  office(o: OfficeRec): Record<string, unknown> {
    return {
      id: o.id,
      name: o.name,
      location: { name: o.location },
      primary_contact_user_id: null,
      parent_id: null,
      parent_office_external_id: null,
      child_ids: [],
      child_office_external_ids: [],
      external_id: null
    }
  }

  jobPost(p: JobPostRec): Record<string, unknown> {
    return {
      id: p.id,
      title: p.title,
      location: { id: p.id * 10, name: p.location, office_id: null, job_post_custom_location_id: null, job_post_location_type: { id: 1, name: "Free Text" } },
      internal: p.internal,
      external: p.external,
      active: p.active,
      live: p.live,
      first_published_at: isoOrNull(p.first_published_at),
      job_id: p.job_id,
      content: p.content,
      internal_content: null,
      updated_at: iso(p.updated_at),
      created_at: iso(p.created_at),
      demographic_question_set_id: null,
      questions: [
        { required: true, private: false, label: "First Name", name: "first_name", type: "short_text", values: [], description: null },
        { required: true, private: false, label: "Last Name", name: "last_name", type: "short_text", values: [], description: null },
        { required: true, private: false, label: "Email", name: "email", type: "short_text", values: [], description: null },
        { required: true, private: false, label: "Resume", name: "resume", type: "attachment", values: [], description: null }
      ]
    }
  }

  fieldDefinition(f: FieldDefinitionRec): Record<string, unknown> {
    return {
      id: f.id,
      name: f.name,
      active: true,
      field_type: f.field_type,
      priority: f.priority,
      value_type: f.value_type,
      private: f.private,
      required: f.required,
      require_approval: false,
      trigger_new_version: false,
      name_key: f.name_key,
      description: f.description,
      expose_in_job_board_api: false,
      api_only: false,
      offices: [],
      departments: [],
      template_token_string: `{{${f.name_key.toUpperCase()}}}`,
      custom_field_options: f.options.map((option) => ({ id: option.id, name: option.name, priority: option.priority, external_id: null }))
    }
  }

  stage(st: StageRec): Record<string, unknown> {
    return {
      id: st.id,
      name: st.name,
      created_at: iso(st.created_at),
      updated_at: iso(st.updated_at),
      active: true,
      job_id: st.job_id,
      priority: st.priority,
      interviews: st.interviews.map((i) => ({
        id: i.id,
        name: i.name,
        schedulable: i.schedulable,
        estimated_minutes: i.estimated_minutes,
        default_interviewer_users: i.interviewer_ids.map((u) => this.userRef(u)),
        interview_kit: { id: i.kit_id, content: i.schedulable ? `<h5>Purpose</h5><span>${i.name}</span>` : null, questions: i.questions.map((q) => ({ ...q })) }
      }))
    }
  }

  scorecard(sc: ScorecardRec): Record<string, unknown> {
    const ratings: Record<string, Array<string>> = { definitely_not: [], no: [], mixed: [], yes: [], strong_yes: [] }
    for (const a of sc.attributes) (ratings[a.rating] ??= []).push(a.name)
    return {
      id: sc.id,
      updated_at: iso(sc.updated_at),
      created_at: iso(sc.created_at),
      interview: sc.step.name,
      interview_step: { ...sc.step },
      candidate_id: sc.candidate_id,
      application_id: sc.application_id,
      interviewed_at: iso(sc.interviewed_at),
      submitted_by: this.userRef(sc.submitted_by_id),
      interviewer: this.userRef(sc.interviewer_id),
      submitted_at: iso(sc.submitted_at),
      overall_recommendation: sc.overall_recommendation,
      attributes: sc.attributes.map((a) => ({ ...a })),
      ratings,
      questions: sc.questions.map((q) => ({ ...q }))
    }
  }

  interview(iv: InterviewRec): Record<string, unknown> {
    return {
      id: iv.id,
      application_id: iv.application_id,
      external_event_id: iv.external_event_id,
      start: { date_time: iso(iv.start) },
      end: { date_time: iso(iv.end) },
      location: iv.location,
      video_conferencing_url: iv.video_conferencing_url,
      status: iv.status,
      created_at: iso(iv.created_at),
      updated_at: iso(iv.updated_at),
      interview: { ...iv.step },
      organizer: this.userRef(iv.organizer_id),
      interviewers: iv.interviewers.map((x) => {
        const u = this.state.users.get(x.user_id)
        return {
          id: x.user_id,
          employee_id: u?.employee_id ?? null,
          name: u === undefined ? null : fullName(u),
          email: u?.email ?? null,
          response_status: x.response_status,
          scorecard_id: x.scorecard_id
        }
      })
    }
  }

  offer(o: OfferRec): Record<string, unknown> {
    return {
      id: o.id,
      version: o.version,
      application_id: o.application_id,
      job_id: o.job_id,
      candidate_id: o.candidate_id,
      opening: null,
      created_at: iso(o.created_at),
      updated_at: iso(o.updated_at),
      sent_at: o.sent_at,
      resolved_at: isoOrNull(o.resolved_at),
      starts_at: o.starts_at,
      status: o.status,
      custom_fields: { ...o.custom_fields },
      keyed_custom_fields: keyed(o.custom_fields, {
        employment_type: { name: "Employment Type", type: "single_select" },
        salary: { name: "Salary", type: "currency" }
      })
    }
  }

  note(n: NoteRec): Record<string, unknown> {
    return {
      id: n.id,
      created_at: iso(n.created_at),
      updated_at: iso(n.updated_at),
      body: n.body,
      user: this.userRef(n.user_id),
      private: n.visibility === "private",
      visiblity: n.visibility,
      visibility: n.visibility,
      application_id: n.application_id
    }
  }

  email(e: EmailRec): Record<string, unknown> {
    return {
      id: e.id,
      created_at: iso(e.created_at),
      subject: e.subject,
      body: e.body,
      to: e.to,
      from: e.from,
      cc: e.cc,
      user: this.userRef(e.user_id),
      application_id: e.application_id
    }
  }

  activity(a: ActivityRec): Record<string, unknown> {
    return {
      id: a.id,
      created_at: iso(a.created_at),
      subject: a.subject,
      body: a.body,
      user: this.userRef(a.user_id),
      application_id: a.application_id,
      type: a.type,
      changes: a.changes
    }
  }

  /** Candidate or application activity feed: notes, emails and activities, newest first. */
  feed(filter: (x: { candidate_id: number; application_id: number | null }) => boolean): Record<string, unknown> {
    const s = this.state
    const newest = <T extends { created_at: number; id: number }>(xs: Array<T>): Array<T> => xs.sort((a, b) => b.created_at - a.created_at || b.id - a.id)
    return {
      notes: newest([...s.notes.values()].filter(filter)).map((n) => this.note(n)),
      emails: newest([...s.emails.values()].filter(filter)).map((e) => this.email(e)),
      activities: newest([...s.activities.values()].filter(filter)).map((a) => this.activity(a))
    }
  }
}

/** Case-insensitive search over names, emails, company and title (used by the MCP tool too). */
export const searchCandidates = (state: AtsState, query: string, limit: number): Array<CandidateRec> => {
  const terms = query.toLowerCase().split(/\s+/).filter((t) => t.length > 0)
  const hits: Array<CandidateRec> = []
  for (const c of state.candidates.values()) {
    const haystack = [c.first_name, c.last_name, c.company ?? "", c.title ?? "", ...c.email_addresses.map((e) => e.value), ...c.tags].join(" ").toLowerCase()
    if (terms.every((t) => haystack.includes(t))) hits.push(c)
    if (hits.length >= limit) break
  }
  return hits
}
