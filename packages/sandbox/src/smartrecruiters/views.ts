import { iso } from "../clock.js"
import type { SmartRecruitersState, SrAssignment, SrCandidate, SrJob, SrUser } from "./data.js"

/**
 * Answers in SmartRecruiters' shapes: the list item of GET /candidates (Candidate), the details of
 * GET /candidates/{id} (CandidateDetails, whose assignments are full Assignment objects), an
 * application (an Assignment), jobs (JobSummary and JobDetails) and users. `actions` links point
 * at the API's own paths, as SmartRecruiters' do.
 */
export class SrViews {
  constructor(private readonly state: SmartRecruitersState, private readonly apiUrl: string) {}

  private jobRef(jobId: string): { id: string; title: string } {
    return { id: jobId, title: this.state.jobs.get(jobId)?.title ?? "" }
  }

  assignment(candidate: SrCandidate, a: SrAssignment): Record<string, unknown> {
    const reason = a.reasonId === null ? undefined : this.state.rejectionReasons.find((r) => r.id === a.reasonId)
    return {
      job: { ...this.jobRef(a.jobId), actions: { details: { url: `${this.apiUrl}/jobs/${a.jobId}`, method: "GET" } } },
      status: a.status,
      ...(a.subStatus === null ? {} : { subStatus: a.subStatus }),
      startsOn: iso(a.startsOn),
      source: a.source,
      ...(reason === undefined ? {} : { reasonOfRejection: { id: reason.id, label: reason.label } }),
      actions: { status: { url: `${this.apiUrl}/candidates/${candidate.id}/jobs/${a.jobId}/status`, method: "PUT" } }
    }
  }

  private common(c: SrCandidate): Record<string, unknown> {
    return {
      id: c.id,
      internal: c.internal,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      ...(c.location === null ? {} : { location: c.location }),
      createdOn: iso(c.createdOn),
      updatedOn: iso(c.updatedOn),
      averageRating: c.averageRating,
      tags: c.tags
    }
  }

  /** A list item: the primary assignment with its status, the others by job only. */
  candidate(c: SrCandidate): Record<string, unknown> {
    const [primary, ...secondary] = c.assignments
    return {
      ...this.common(c),
      ...(primary === undefined
        ? {}
        : { primaryAssignment: { job: this.jobRef(primary.jobId), status: primary.status, ...(primary.subStatus === null ? {} : { subStatus: primary.subStatus }) } }),
      secondaryAssignments: secondary.map((a) => ({ job: { id: a.jobId } })),
      actions: { details: { url: `${this.apiUrl}/candidates/${c.id}`, method: "GET" } }
    }
  }

  candidateDetails(c: SrCandidate): Record<string, unknown> {
    const [primary, ...secondary] = c.assignments
    return {
      ...this.common(c),
      ...(c.phoneNumber === null ? {} : { phoneNumber: c.phoneNumber }),
      web: c.web,
      education: [],
      experience: [],
      ...(primary === undefined ? {} : { primaryAssignment: this.assignment(c, primary) }),
      secondaryAssignments: secondary.map((a) => this.assignment(c, a)),
      actions: { attachments: { url: `${this.apiUrl}/candidates/${c.id}/attachments`, method: "GET" } }
    }
  }

  job(j: SrJob): Record<string, unknown> {
    const department = this.state.departments.find((d) => d.id === j.departmentId)
    return {
      id: j.id,
      title: j.title,
      refNumber: j.refNumber,
      createdOn: iso(j.createdOn),
      updatedOn: iso(j.updatedOn),
      lastActivityOn: iso(j.lastActivityOn),
      ...(department === undefined ? {} : { department: { id: department.id, label: department.label } }),
      location: j.location,
      status: j.status,
      postingStatus: j.postingStatus,
      actions: { details: { url: `${this.apiUrl}/jobs/${j.id}`, method: "GET" } }
    }
  }

  jobDetails(j: SrJob): Record<string, unknown> {
    const department = this.state.departments.find((d) => d.id === j.departmentId)
    return {
      ...this.job(j),
      ...(department === undefined ? {} : { department }),
      actions: { candidates: { url: `${this.apiUrl}/jobs/${j.id}/candidates`, method: "GET" } }
    }
  }

  user(u: SrUser): Record<string, unknown> {
    return {
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      systemRole: { id: u.systemRole },
      active: u.active,
      updatedOn: iso(u.updatedOn),
      language: { code: u.language },
      location: u.location
    }
  }
}
