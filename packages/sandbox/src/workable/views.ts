import type { WorkableCandidate, WorkableJob, WorkableMember, WorkableStage, WorkableState } from "./data.js"

/**
 * The records as Workable's SPI v3 answers them. v3 renders timestamps in ISO 8601, always UTC,
 * without fractions (e.g. 2015-06-08T00:00:00Z), and empty values as null ("What's new in v3").
 */

export const timestamp = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")

/** `hired_at` is documented as a date. */
const date = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

const COUNTRY_CODES: Readonly<Record<string, string>> = { "United States": "US", Canada: "CA", "United Kingdom": "GB", Germany: "DE" }

export class WorkableViews {
  constructor(private readonly state: WorkableState) {}

  private get site(): string {
    return `https://${this.state.subdomain}.workable.com`
  }

  private account() {
    return { subdomain: this.state.subdomain, name: this.state.accountName }
  }

  private jobOf(candidate: WorkableCandidate): WorkableJob | undefined {
    return this.state.jobs.find((job) => job.shortcode === candidate.shortcode)
  }

  stageOf(slug: string): WorkableStage | undefined {
    return this.state.stages.find((stage) => stage.slug === slug)
  }

  private name(candidate: WorkableCandidate): string {
    return `${candidate.firstname} ${candidate.lastname}`.trim()
  }

  private profileUrl(candidate: WorkableCandidate): string {
    const job = this.jobOf(candidate)
    return `${this.site}/backend/jobs/${job === undefined ? 0 : parseInt(job.id, 16)}/candidates/${parseInt(candidate.id, 16)}`
  }

  /** A candidate in a collection (GET /candidates): `stage` is the stage's slug, with its kind. */
  candidateSummary(candidate: WorkableCandidate) {
    const job = this.jobOf(candidate)
    return {
      id: candidate.id,
      name: this.name(candidate),
      firstname: candidate.firstname,
      lastname: candidate.lastname,
      headline: candidate.headline,
      account: this.account(),
      job: { shortcode: candidate.shortcode, title: job?.title ?? null },
      stage: candidate.stage,
      stage_kind: this.stageOf(candidate.stage)?.kind ?? null,
      disqualified: candidate.disqualified,
      withdrew: candidate.withdrew,
      disqualification_reason: candidate.disqualification_reason,
      sourced: candidate.sourced,
      profile_url: this.profileUrl(candidate),
      email: candidate.email,
      domain: candidate.domain,
      created_at: timestamp(candidate.createdAt),
      updated_at: timestamp(candidate.updatedAt),
      hired_at: candidate.hiredAt === null ? null : date(candidate.hiredAt),
      address: candidate.address,
      phone: candidate.phone
    }
  }

  /**
   * One candidate (GET /candidates/:id, under `candidate`): `stage` is the current stage's name;
   * with the attributes v3 leaves out of collections (tags, summary, cover letter, ...).
   */
  candidateDetail(candidate: WorkableCandidate) {
    const job = this.jobOf(candidate)
    return {
      id: candidate.id,
      name: this.name(candidate),
      firstname: candidate.firstname,
      lastname: candidate.lastname,
      headline: candidate.headline,
      image_url: null,
      account: this.account(),
      job: { shortcode: candidate.shortcode, title: job?.title ?? null },
      stage: this.stageOf(candidate.stage)?.name ?? candidate.stage,
      disqualified: candidate.disqualified,
      disqualified_at: candidate.disqualifiedAt === null ? null : timestamp(candidate.disqualifiedAt),
      disqualification_reason: candidate.disqualification_reason,
      sourced: candidate.sourced,
      profile_url: this.profileUrl(candidate),
      address: candidate.address,
      phone: candidate.phone,
      email: candidate.email,
      outbound_mailbox: `${candidate.id}@${this.state.subdomain}.outbound.workablemail.example.com`,
      domain: candidate.domain,
      uploader_id: candidate.uploader_id,
      created_at: timestamp(candidate.createdAt),
      updated_at: timestamp(candidate.updatedAt),
      hired_at: candidate.hiredAt === null ? null : date(candidate.hiredAt),
      cover_letter: candidate.cover_letter,
      summary: candidate.summary,
      tags: [...candidate.tags]
    }
  }

  job(job: WorkableJob) {
    const department = this.state.departments[job.department]!
    const parent = this.state.departments.find((d) => d.id === department.parent_id)
    const [city, region, country, zip] = job.city
    const numeric = parseInt(job.id, 16)
    return {
      id: job.id,
      title: job.title,
      full_title: `${job.title} - ${job.code}`,
      shortcode: job.shortcode,
      code: job.code,
      state: job.state,
      department: department.name,
      // the documented type of these ids is integer
      department_hierarchy: [...(parent === undefined ? [] : [parent]), department].map((d) => ({ id: parseInt(d.id, 16), name: d.name })),
      url: `${this.site}/jobs/${numeric}`,
      application_url: `${this.site}/jobs/${numeric}/candidates/new`,
      shortlink: `${this.site}/j/${job.shortcode}`,
      location: {
        location_str: [city, region, country].filter((part) => part !== "").join(", "),
        country,
        country_code: COUNTRY_CODES[country] ?? null,
        region: region === "" ? null : region,
        region_code: region === "" ? null : region,
        city,
        zip_code: zip,
        telecommuting: job.workplaceType === "remote",
        workplace_type: job.workplaceType
      }
    }
  }

  member(member: WorkableMember) {
    return { id: member.id, name: member.name, headline: member.headline, email: member.email, roles: [...member.roles], active: member.active, collaboration_rules: [] }
  }
}
