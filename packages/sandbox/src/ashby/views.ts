import { iso } from "../clock.js"
import type { AshbyApplication, AshbyCandidate, AshbyDepartment, AshbyJob, AshbyLocation, AshbyStage, AshbyState, AshbyUser } from "./data.js"

/**
 * Records as Ashby's API answers them (the `results` schemas of user.info, department.info,
 * location.info, interviewStage.info, job.info, candidate.info and application.info): ISO 8601
 * times, related records nested by id and title.
 */
export class AshbyViews {
  constructor(
    private readonly state: AshbyState,
    private readonly profileOrigin: string
  ) {}

  user(user: AshbyUser): Record<string, unknown> {
    return {
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      globalRole: user.globalRole,
      isEnabled: user.isEnabled,
      updatedAt: iso(user.updatedAt),
      ...(user.managerId === null ? {} : { managerId: user.managerId })
    }
  }

  department(department: AshbyDepartment): Record<string, unknown> {
    return {
      id: department.id,
      name: department.name,
      isArchived: department.isArchived,
      ...(department.parentId === null ? {} : { parentId: department.parentId }),
      createdAt: iso(department.createdAt),
      updatedAt: iso(department.updatedAt)
    }
  }

  location(location: AshbyLocation): Record<string, unknown> {
    return {
      id: location.id,
      name: location.name,
      isArchived: location.isArchived,
      address: { postalAddress: { ...location.address } },
      isRemote: location.workplaceType === "Remote",
      workplaceType: location.workplaceType,
      type: "Location"
    }
  }

  stage(stage: AshbyStage): Record<string, unknown> {
    return {
      id: stage.id,
      title: stage.title,
      type: stage.type,
      orderInInterviewPlan: stage.orderInInterviewPlan,
      interviewStageGroupId: null,
      interviewPlanId: stage.interviewPlanId
    }
  }

  job(job: AshbyJob): Record<string, unknown> {
    return {
      id: job.id,
      title: job.title,
      confidential: job.confidential,
      status: job.status,
      employmentType: job.employmentType,
      locationId: job.locationId,
      departmentId: job.departmentId,
      defaultInterviewPlanId: job.defaultInterviewPlanId,
      interviewPlanIds: [job.defaultInterviewPlanId],
      customFields: [],
      // job postings are not modelled here
      jobPostingIds: [],
      customRequisitionId: job.customRequisitionId,
      hiringTeam: job.hiringTeam.map((member) => {
        const user = this.state.users.get(member.userId) as AshbyUser
        return { email: user.email, firstName: user.firstName, lastName: user.lastName, role: member.role, userId: user.id }
      }),
      updatedAt: iso(job.updatedAt),
      createdAt: iso(job.createdAt),
      openedAt: job.openedAt === null ? null : iso(job.openedAt),
      closedAt: job.closedAt === null ? null : iso(job.closedAt)
    }
  }

  private source(sourceId: string | null): Record<string, unknown> | undefined {
    const source = this.state.sources.find((s) => s.id === sourceId)
    return source === undefined ? undefined : { ...source, sourceType: { ...source.sourceType } }
  }

  candidate(candidate: AshbyCandidate): Record<string, unknown> {
    const creditedTo = candidate.creditedToUserId === null ? undefined : this.state.users.get(candidate.creditedToUserId)
    const source = this.source(candidate.sourceId)
    const location = candidate.location
    return {
      id: candidate.id,
      createdAt: iso(candidate.createdAt),
      updatedAt: iso(candidate.updatedAt),
      name: candidate.name,
      ...(candidate.emails[0] === undefined ? {} : { primaryEmailAddress: { ...candidate.emails[0] } }),
      emailAddresses: candidate.emails.map((email) => ({ ...email })),
      ...(candidate.phones[0] === undefined ? {} : { primaryPhoneNumber: { ...candidate.phones[0] } }),
      phoneNumbers: candidate.phones.map((phone) => ({ ...phone })),
      socialLinks: candidate.socialLinks.map((link) => ({ ...link })),
      tags: candidate.tags.map((tag) => ({ ...tag })),
      ...(candidate.position === null ? {} : { position: candidate.position }),
      ...(candidate.company === null ? {} : { company: candidate.company }),
      ...(candidate.school === null ? {} : { school: candidate.school }),
      applicationIds: [...this.state.applications.values()].filter((a) => a.candidateId === candidate.id).map((a) => a.id),
      fileHandles: [],
      customFields: [],
      profileUrl: `${this.profileOrigin}/candidates/pipeline/all/${candidate.id}`,
      ...(source === undefined ? {} : { source }),
      ...(creditedTo === undefined ? {} : { creditedToUser: this.user(creditedTo) }),
      ...(location === null
        ? {}
        : {
          location: {
            id: `${candidate.id.slice(0, 24)}${"0".repeat(12)}`,
            locationSummary: [location.country, location.region, location.city].filter((part) => part !== "").join(", "),
            locationComponents: [
              { type: "Country", name: location.country },
              ...(location.region === "" ? [] : [{ type: "Region", name: location.region }]),
              { type: "City", name: location.city }
            ]
          }
        })
    }
  }

  application(application: AshbyApplication): Record<string, unknown> {
    const candidate = this.state.candidates.get(application.candidateId) as AshbyCandidate
    const job = this.state.jobs.get(application.jobId) as AshbyJob
    const stage = [...this.state.plans.values()].flatMap((plan) => plan.stages).find((s) => s.id === application.currentInterviewStageId) as AshbyStage
    const reason = this.state.archiveReasons.find((r) => r.id === application.archiveReasonId)
    const creditedTo = application.creditedToUserId === null ? undefined : this.state.users.get(application.creditedToUserId)
    const source = this.source(application.sourceId)
    return {
      id: application.id,
      createdAt: iso(application.createdAt),
      updatedAt: iso(application.updatedAt),
      status: application.status,
      customFields: [],
      candidate: {
        id: candidate.id,
        name: candidate.name,
        ...(candidate.emails[0] === undefined ? {} : { primaryEmailAddress: { ...candidate.emails[0] } }),
        ...(candidate.phones[0] === undefined ? {} : { primaryPhoneNumber: { ...candidate.phones[0] } })
      },
      currentInterviewStage: this.stage(stage),
      ...(source === undefined ? {} : { source }),
      ...(reason === undefined ? {} : { archiveReason: { ...reason } }),
      ...(application.archivedAt === null ? {} : { archivedAt: iso(application.archivedAt) }),
      job: { id: job.id, title: job.title, locationId: job.locationId, departmentId: job.departmentId },
      ...(creditedTo === undefined ? {} : { creditedToUser: this.user(creditedTo) }),
      hiringTeam: []
    }
  }
}
