import type { TeamtailorState, TtCandidate, TtDepartment, TtJob, TtJobApplication, TtLocation, TtRejectReason, TtStage, TtUser } from "./data.js"
import { ttDate, ttDateOrNull } from "./dates.js"
import type { Resolve, Resource } from "./jsonApi.js"

/**
 * Teamtailor's resources with the attribute names and relations of docs.teamtailor.com (kebab-case
 * attributes; relations of no record here, such as a candidate's role, are present with empty data).
 */

/** The relations a request may `include`, by resource type. */
export const RELATIONS: Readonly<Record<string, ReadonlyArray<string>>> = {
  candidates: ["department", "role", "job-applications", "locations", "regions"],
  jobs: ["department", "role", "locations", "user", "stages", "candidates"],
  "job-applications": ["candidate", "job", "stage", "reject-reason"],
  stages: ["job", "job-applications"],
  users: ["department", "location", "jobs"],
  departments: ["roles", "teams"],
  locations: [],
  "reject-reasons": ["job-applications"]
}

export class TeamtailorViews {
  constructor(private readonly state: TeamtailorState, private readonly careerSite: string) {}

  candidate(candidate: TtCandidate): Resource {
    return {
      type: "candidates",
      id: candidate.id,
      attributes: {
        connected: candidate.connected,
        "created-at": ttDate(candidate.created_at),
        email: candidate.email,
        "facebook-id": null,
        "first-name": candidate.first_name,
        internal: candidate.internal,
        "last-name": candidate.last_name,
        "linkedin-uid": null,
        "linkedin-url": candidate.linkedin_url,
        "original-resume": null,
        phone: candidate.phone,
        picture: null,
        pitch: candidate.pitch,
        "referring-site": candidate.referring_site,
        "referring-url": candidate.referring_url,
        referred: candidate.referred,
        resume: null,
        sourced: candidate.sourced,
        unsubscribed: candidate.unsubscribed,
        "updated-at": ttDate(candidate.updated_at),
        "facebook-profile": null,
        "linkedin-profile": null,
        tags: candidate.tags
      },
      relationships: {
        department: { type: "departments", id: null },
        role: { type: "roles", id: null },
        "job-applications": { type: "job-applications", ids: this.state.jobApplications.filter((a) => a.candidate_id === candidate.id).map((a) => a.id) },
        locations: { type: "locations", ids: [] },
        regions: { type: "regions", ids: [] }
      }
    }
  }

  job(job: TtJob): Resource {
    const slug = `${job.id}-${job.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`
    return {
      type: "jobs",
      id: job.id,
      links: {
        "careersite-job-url": `${this.careerSite}/jobs/${slug}`,
        "careersite-job-apply-url": `${this.careerSite}/jobs/${slug}/applications/new`,
        "careersite-job-apply-iframe-url": `${this.careerSite}/jobs/${slug}/applications/new?iframe=true`
      },
      attributes: {
        "apply-button-text": null,
        body: job.body,
        "end-date": ttDateOrNull(job.end_date),
        "human-status": humanStatus(job),
        internal: job.internal,
        picture: null,
        pinned: false,
        "start-date": ttDateOrNull(job.start_date),
        status: job.status,
        title: job.title,
        pitch: job.pitch,
        tags: job.tags,
        "external-application-url": null,
        "name-requirement": "optional",
        "resume-requirement": "optional",
        "remote-status": job.remote_status,
        "cover-letter-requirement": "optional",
        "phone-requirement": "optional",
        "created-at": ttDate(job.created_at),
        mailbox: `job-${job.id}@inbound.teamtailor.example`
      },
      relationships: {
        department: { type: "departments", id: job.department_id },
        role: { type: "roles", id: null },
        locations: { type: "locations", ids: job.location_ids },
        user: { type: "users", id: job.user_id },
        stages: { type: "stages", ids: this.state.stages.filter((s) => s.job_id === job.id).map((s) => s.id) },
        candidates: { type: "candidates", ids: [...new Set(this.state.jobApplications.filter((a) => a.job_id === job.id).map((a) => a.candidate_id))] }
      }
    }
  }

  jobApplication(application: TtJobApplication): Resource {
    return {
      type: "job-applications",
      id: application.id,
      attributes: {
        "created-at": ttDate(application.created_at),
        "cover-letter": application.cover_letter,
        "updated-at": ttDate(application.updated_at),
        "rejected-at": ttDateOrNull(application.rejected_at),
        "referring-url": application.referring_url,
        "referring-site": application.referring_site,
        sourced: application.sourced,
        "changed-stage-at": ttDate(application.changed_stage_at)
      },
      relationships: {
        candidate: { type: "candidates", id: application.candidate_id },
        job: { type: "jobs", id: application.job_id },
        stage: { type: "stages", id: application.stage_id },
        "reject-reason": { type: "reject-reasons", id: application.reject_reason_id }
      }
    }
  }

  stage(stage: TtStage): Resource {
    const applications = this.state.jobApplications.filter((a) => a.stage_id === stage.id)
    return {
      type: "stages",
      id: stage.id,
      attributes: {
        "created-at": ttDate(stage.created_at),
        "updated-at": ttDate(stage.updated_at),
        name: stage.name,
        "stage-type": stage.stage_type,
        "row-order": stage.row_order,
        "active-job-applications-count": applications.filter((a) => a.rejected_at === null).length,
        "rejected-job-applications-count": applications.filter((a) => a.rejected_at !== null).length
      },
      relationships: {
        job: { type: "jobs", id: stage.job_id },
        "job-applications": { type: "job-applications", ids: applications.map((a) => a.id) }
      }
    }
  }

  user(user: TtUser): Resource {
    return {
      type: "users",
      id: user.id,
      attributes: {
        description: "",
        email: user.email,
        "external-id": null,
        "hide-email": false,
        "login-email": user.email,
        name: user.name,
        phone: user.phone,
        picture: null,
        role: user.role,
        title: user.title,
        username: user.username,
        visible: true
      },
      relationships: {
        department: { type: "departments", id: user.department_id },
        location: { type: "locations", id: user.location_id },
        jobs: { type: "jobs", ids: this.state.jobs.filter((job) => job.user_id === user.id).map((job) => job.id) }
      }
    }
  }

  department(department: TtDepartment): Resource {
    return {
      type: "departments",
      id: department.id,
      attributes: { name: department.name },
      relationships: { roles: { type: "roles", ids: [] }, teams: { type: "teams", ids: [] } }
    }
  }

  location(location: TtLocation): Resource {
    const { id, ...attributes } = location
    return { type: "locations", id, attributes, relationships: {} }
  }

  rejectReason(reason: TtRejectReason): Resource {
    return {
      type: "reject-reasons",
      id: reason.id,
      attributes: { reason: reason.reason, "rejected-by-company": reason.rejected_by_company },
      relationships: { "job-applications": { type: "job-applications", ids: this.state.jobApplications.filter((a) => a.reject_reason_id === reason.id).map((a) => a.id) } }
    }
  }

  /** Any resource by type and id, for `included`. */
  readonly resolve: Resolve = (type, id) => {
    const state = this.state
    const find = <T extends { id: number }>(items: ReadonlyArray<T>): T | undefined => items.find((item) => item.id === id)
    const map = <T>(record: T | undefined, view: (record: T) => Resource): Resource | undefined => (record === undefined ? undefined : view(record))
    switch (type) {
      case "candidates": return map(find(state.candidates), (r) => this.candidate(r))
      case "jobs": return map(find(state.jobs), (r) => this.job(r))
      case "job-applications": return map(find(state.jobApplications), (r) => this.jobApplication(r))
      case "stages": return map(find(state.stages), (r) => this.stage(r))
      case "users": return map(find(state.users), (r) => this.user(r))
      case "departments": return map(find(state.departments), (r) => this.department(r))
      case "locations": return map(find(state.locations), (r) => this.location(r))
      case "reject-reasons": return map(find(state.rejectReasons), (r) => this.rejectReason(r))
      default: return undefined
    }
  }
}

/** `human-status`: `archived`, `unlisted`, `expired`, `draft`, `published`, `scheduled` or `unsaved`. */
export const humanStatus = (job: TtJob): string => (job.status === "open" ? "published" : job.status)
