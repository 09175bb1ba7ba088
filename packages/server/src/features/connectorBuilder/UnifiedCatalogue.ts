/*
 * The unified models a draft can map a provider's operations to, per category: for each
 * resource the unified action ids (StackOne's naming, which ours follows), the nouns a
 * provider's paths use for it, and the model's fields with their types and the names
 * providers give them. Names are written in snake_case and compared after normalizing the
 * provider's (camelCase, kebab-case, case); a name marked `?` is only a guess, proposed for
 * review and never mapped on its own. Field names and types follow the unified API (our
 * declared models in @switchyard/api where they exist, else the public reference of the API
 * family); the nouns and provider names are this builder's own.
 */

export type Category = "hris" | "ats" | "lms"

export const CATEGORIES: ReadonlyArray<Category> = ["hris", "ats", "lms"]

export type UnifiedFieldType = "string" | "number" | "boolean" | "datetime_string" | "enum"

export type CodeKind = "country" | "language" | "code"

export interface UnifiedField {
  /** Dotted for a field inside an object (`home_location.city`). */
  readonly key: string
  readonly type: UnifiedFieldType
  readonly array: boolean
  /** Provider names (normalized snake_case) that mean this field. */
  readonly names: ReadonlyArray<string>
  /** Provider names that may mean it: proposed for review only. */
  readonly guesses: ReadonlyArray<string>
  /**
   * Enum values; or codes: `country` (ISO 3166-1 alpha-2) and `language` (ISO 639-2) are read
   * from the provider's text when it is one, other `code`s are passed through.
   */
  readonly values?: ReadonlyArray<string> | CodeKind
  /** Provider spellings (normalized: lower case letters and digits) of enum values. */
  readonly aliases?: Readonly<Record<string, ReadonlyArray<string>>>
  /** Whether a provider property of the field's own name means it (false for `title`, more often a job title). */
  readonly ownName: boolean
  /** What to check whenever the field is mapped (a scale, a format). */
  readonly note?: string
}

export interface UnifiedModel {
  readonly name: string
  readonly fields: ReadonlyArray<UnifiedField>
}

export interface UnifiedResource {
  readonly category: Category
  readonly model: UnifiedModel
  /** Singular snake_case nouns a path may use for it (`employee`, `person`, `worker`). */
  readonly nouns: ReadonlyArray<string>
  /** Nouns of the resource this one is read under (`/employees/{id}/time_off`); none for a top-level one. */
  readonly parent?: ReadonlyArray<string>
  /**
   * Generic nouns that name this resource only when another word of the path names it
   * (`/timeoff/employees/{id}/requests`, `/timeoff/policy-types`).
   */
  readonly contextNouns?: ReadonlyArray<string>
  readonly list?: string
  readonly get?: string
}

const field = (
  key: string,
  type: UnifiedFieldType,
  names: ReadonlyArray<string>,
  extra: Partial<Pick<UnifiedField, "array" | "values" | "aliases" | "note">> & { readonly ownName?: boolean } = {}
): UnifiedField => {
  const own = key.includes(".") || extra.ownName === false ? [] : [key]
  return {
    key,
    type,
    array: extra.array ?? false,
    names: [...own, ...names.filter((name) => !name.startsWith("?"))],
    guesses: names.filter((name) => name.startsWith("?")).map((name) => name.slice(1)),
    ownName: extra.ownName !== false,
    ...(extra.values === undefined ? {} : { values: extra.values }),
    ...(extra.aliases === undefined ? {} : { aliases: extra.aliases }),
    ...(extra.note === undefined ? {} : { note: extra.note })
  }
}
const str = (key: string, ...names: ReadonlyArray<string>) => field(key, "string", names)
const num = (key: string, ...names: ReadonlyArray<string>) => field(key, "number", names)
const bool = (key: string, ...names: ReadonlyArray<string>) => field(key, "boolean", names)
const date = (key: string, ...names: ReadonlyArray<string>) => field(key, "datetime_string", names)
const strs = (key: string, ...names: ReadonlyArray<string>) => field(key, "string", names, { array: true })
const oneOf = (
  key: string,
  values: ReadonlyArray<string> | CodeKind,
  names: ReadonlyArray<string>,
  aliases?: Readonly<Record<string, ReadonlyArray<string>>>
) => field(key, "enum", names, aliases === undefined ? { values } : { values, aliases })

/** Each parent name joined with each leaf name: `address` × `city` → `address_city`. */
const under = (parents: ReadonlyArray<string>, leaves: ReadonlyArray<string>) =>
  parents.flatMap((parent) => leaves.map((leaf) => `${parent}_${leaf}`))

const ADDRESS_LEAVES = {
  street_1: ["street_1", "street1", "address_line_1", "line_1", "line1", "address1", "street", "street_address", "address"],
  street_2: ["street_2", "street2", "address_line_2", "line_2", "line2", "address2"],
  city: ["city", "town", "locality"],
  state: ["state", "region", "province", "state_code"],
  zip_code: ["zip_code", "zip", "zipcode", "postal_code", "postcode"],
  country: ["country", "country_code"]
}

/**
 * The fields of an address: held in an object field (`home_location.city`, prefix given),
 * or the record's own (a location's `city`, no prefix), read from flat names or from an
 * address object (`address.city`).
 */
const addressFields = (prefix: string | undefined, parents: ReadonlyArray<string>): ReadonlyArray<UnifiedField> =>
  Object.entries(ADDRESS_LEAVES).map(([leaf, names]) => {
    const key = prefix === undefined ? leaf : `${prefix}.${leaf}`
    const own = prefix === undefined ? names.filter((name) => name !== "address") : []
    return leaf === "country" ? oneOf(key, "country", [...own, ...under(parents, names)]) : str(key, ...own, ...under(parents, names))
  })

const ids = (): ReadonlyArray<UnifiedField> => [
  str("id", "uuid", "guid"),
  str("remote_id", "id", "uuid", "guid")
]
const CREATED = date("created_at", "created", "creation_date", "created_date", "date_created", "created_on", "inserted_at", "creation_time")
const UPDATED = date(
  "updated_at",
  "updated",
  "last_modified",
  "modified_at",
  "modified",
  "last_updated",
  "updated_on",
  "last_changed",
  "date_modified",
  "modified_date",
  "last_modified_at",
  "last_modified_date",
  "changed_at",
  "last_modified_date_time"
)
const NAME = str("name", "title", "label", "display_name", "full_name")

/** Lower case letters and digits only: the form enum aliases are written in. */
const EMPLOYMENT_STATUS_ALIASES = {
  active: ["employed", "current", "enabled"],
  pending: ["onboarding", "preboarding", "prehire", "hired", "notstarted", "future"],
  terminated: ["inactiveterminated", "offboarded", "former", "left", "dismissed"],
  leave: ["onleave", "leaveofabsence", "absent"],
  inactive: ["disabled", "suspended", "archived", "deactivated"]
}

const HRIS_EMPLOYEE: UnifiedModel = {
  name: "employee",
  fields: [
    ...ids(),
    // a provider's `title` is a job title far more often than Mr or Ms
    field("title", "string", ["salutation", "honorific", "name_prefix", "prefix"], { ownName: false }),
    str("first_name", "given_name", "firstname", "forename", "fname", "name_first", "name_given", "legal_first_name", "?preferred_first_name"),
    str("last_name", "family_name", "surname", "lastname", "lname", "name_last", "name_family", "legal_last_name", "?preferred_last_name"),
    str("name", "full_name", "fullname", "name_full", "legal_name", "?display_name", "?descriptor"),
    str("display_name", "preferred_name", "displayed_name", "name_display", "descriptor", "?nickname", "?name"),
    str("avatar_url", "avatar", "photo_url", "picture_url", "image_url", "profile_picture_url", "profile_photo_url", "photo", "picture", "profile_picture"),
    str("personal_email", "private_email", "home_email", "personal_email_address", "private_email_address"),
    str("personal_phone_number", "mobile_phone", "mobile", "mobile_phone_number", "cell_phone", "personal_phone", "home_phone", "private_phone", "mobile_number"),
    str("work_email", "email", "business_email", "company_email", "email_address", "primary_email", "work_email_address", "office_email"),
    str("work_phone_number", "work_phone", "business_phone", "office_phone", "work_phone_no", "?phone", "?phone_number"),
    str("job_id", "position_id", "job_profile_id"),
    str("job_title", "title", "position_title", "job_position", "designation", "job_name", "business_title", "occupation", "?position", "?role", "?job"),
    str("department_id", "team_id", "org_unit_id", "?department_ids"),
    str("department", "department_name", "?team", "?division", "?org_unit"),
    str("manager_id", "supervisor_id", "reports_to", "reports_to_id", "line_manager_id", "manager_employee_id", "supervisor_eid", "manager_uuid", "manager", "supervisor"),
    str("remote_manager_id", "manager_id", "supervisor_id", "reports_to_id", "line_manager_id", "manager_employee_id", "supervisor_eid", "manager_uuid"),
    oneOf("gender", ["male", "female", "non_binary", "other", "not_disclosed", "diverse"], ["sex", "gender_identity"], {
      male: ["m", "man"],
      female: ["f", "woman"],
      non_binary: ["nonbinary", "nb", "x"],
      not_disclosed: ["undisclosed", "unknown", "declinetostate", "prefernottosay", "notspecified"]
    }),
    oneOf("preferred_language", "language", ["language", "locale", "language_code"]),
    oneOf(
      "ethnicity",
      ["white", "black_or_african_american", "asian", "hispanic_or_latino", "american_indian_or_alaska_native", "native_hawaiian_or_pacific_islander", "two_or_more_races", "not_disclosed", "other"],
      ["race", "ethnic_group"],
      { two_or_more_races: ["twoormore", "multiracial"], black_or_african_american: ["black"], hispanic_or_latino: ["hispanic", "latino"] }
    ),
    date("date_of_birth", "birth_date", "birthdate", "dob", "birthday", "date_birth"),
    oneOf(
      "marital_status",
      ["single", "married", "common_law", "divorced", "widowed", "domestic_partnership", "separated", "other", "not_disclosed"],
      ["civil_status", "family_status", "relationship_status"],
      { domestic_partnership: ["registeredpartnership", "civilpartnership", "partnership"], widowed: ["widow", "widower"] }
    ),
    date("hire_date", "hired_at", "hired_on", "date_of_hire", "original_hire_date", "joining_date", "join_date", "joined_at", "date_joined", "hire_on"),
    date("start_date", "started_at", "start_on", "employment_start_date", "contract_start_date", "first_day", "first_working_day", "?hire_date"),
    num("tenure", "tenure_years", "years_of_service"),
    date("work_anniversary", "anniversary", "anniversary_date", "seniority_date"),
    oneOf(
      "employment_type",
      ["contractor", "intern", "permanent", "apprentice", "freelance", "terminated", "temporary", "seasonal", "volunteer", "probation", "internal", "external", "expatriate", "employer_of_record", "casual"],
      ["employee_type", "worker_type", "type_of_employment", "?contract_type", "?type"],
      {
        contractor: ["contract", "independentcontractor", "contingent", "contingentworker"],
        intern: ["internship", "trainee", "working_student", "workingstudent"],
        permanent: ["fulltimepermanent", "regular", "employee", "salaried", "fte"],
        temporary: ["temp", "fixedterm"],
        employer_of_record: ["eor"]
      }
    ),
    oneOf("employment_contract_type", ["full_time", "shifts", "part_time"], ["contract_type", "schedule_type", "work_schedule", "employment_schedule", "?employment_type"], {
      full_time: ["fulltime", "ft"],
      part_time: ["parttime", "pt"],
      shifts: ["shift", "shiftwork"]
    }),
    oneOf("employment_status", ["active", "pending", "terminated", "leave", "inactive", "unknown"], ["employee_status", "worker_status", "status", "state", "employment_state", "?active", "?is_active"], EMPLOYMENT_STATUS_ALIASES),
    date("termination_date", "terminated_at", "end_date", "leave_date", "leaving_date", "exit_date", "last_working_day", "last_day_of_work", "termination_on", "separation_date", "contract_end_date"),
    str("company_name", "employer_name", "legal_entity_name", "entity_name", "?company", "?employer"),
    str("company_id", "employer_id", "legal_entity_id", "entity_id", "organization_id", "company_uuid"),
    field("citizenships", "enum", ["citizenship", "nationality", "nationalities"], { values: "country", array: true }),
    str("employee_number", "employee_no", "employee_num", "personnel_number", "staff_number", "payroll_number", "employee_code", "badge_number", "payroll_id", "employee_display_id", "employee_external_id", "external_id", "?employee_id", "?worker_id"),
    ...addressFields("home_location", ["home_address", "address", "home_location", "residence", "residential_address", "private_address", "personal_address", "home"]),
    str("work_location.name", "work_location", "work_location_name", "office", "office_name", "location_name", "workplace", "site", "?location"),
    str("work_location.id", "work_location_id", "office_id", "location_id", "site_id"),
    ...addressFields("work_location", ["work_address", "office_address", "work_location", "office", "workplace"]),
    CREATED,
    UPDATED
  ]
}

const HRIS_EMPLOYMENT: UnifiedModel = {
  name: "employment",
  fields: [
    ...ids(),
    str("employee_id", "worker_id", "person_id", "employee_uuid", "?employee"),
    str("remote_employee_id", "employee_id", "worker_id", "person_id", "employee_uuid"),
    str("job_title", "position_title", "title", "designation", "business_title", "?position", "?role", "?job"),
    str("pay_rate", "rate", "salary", "compensation_rate", "base_salary", "amount", "pay_amount", "?compensation"),
    oneOf("pay_period", ["hour", "day", "week", "every_two_weeks", "month", "quarter", "every_six_months", "year"], ["payment_unit", "rate_unit", "salary_period", "pay_per", "period", "frequency_unit", "?unit"], {
      hour: ["hourly", "perhour"],
      day: ["daily", "perday"],
      week: ["weekly", "perweek"],
      month: ["monthly", "permonth"],
      year: ["yearly", "annual", "annually", "peryear", "annum"]
    }),
    oneOf(
      "pay_frequency",
      ["hourly", "weekly", "bi_weekly", "four_weekly", "semi_monthly", "monthly", "bi_monthly", "quarterly", "semi_annually", "yearly", "thirteen_monthly", "pro_rata", "half_yearly", "daily", "fixed"],
      ["payment_frequency", "payroll_frequency", "pay_schedule", "?frequency"],
      { bi_weekly: ["biweekly", "everyotherweek", "everytwoweeks", "fortnightly"], semi_monthly: ["semimonthly", "twicepermonth", "twiceamonth"], yearly: ["annually", "annual"] }
    ),
    str("pay_currency", "currency", "currency_code", "salary_currency"),
    date("effective_date", "effective_on", "effective_from", "valid_from"),
    date("start_date", "started_at", "start_on", "hire_date", "employment_start_date", "contract_start_date"),
    date("end_date", "ended_at", "end_on", "termination_date", "valid_to", "contract_end_date"),
    oneOf(
      "employment_type",
      ["contractor", "intern", "permanent", "apprentice", "freelance", "terminated", "temporary", "seasonal", "volunteer", "probation", "internal", "external", "expatriate", "employer_of_record", "casual"],
      ["employee_type", "worker_type", "type_of_employment", "?contract_type", "?type"],
      { contractor: ["contract", "independentcontractor", "contingent"], temporary: ["temp", "fixedterm"], permanent: ["regular", "employee"] }
    ),
    oneOf("employment_contract_type", ["full_time", "shifts", "part_time"], ["contract_type", "schedule_type", "work_schedule", "?employment_type"], {
      full_time: ["fulltime", "ft"],
      part_time: ["parttime", "pt"]
    }),
    num("fte", "full_time_equivalent", "fte_percentage", "weekly_hours_ratio"),
    str("payroll_code", "payroll_id", "payroll_number"),
    bool("active", "is_active", "current", "is_current", "is_primary"),
    CREATED,
    UPDATED
  ]
}

const TIME_OFF_TYPES = ["sick", "vacation", "long_term_disability", "short_term_disability", "absent", "comp_time", "training", "annual_leave", "leave_of_absence", "break", "child_care_leave", "maternity_leave", "jury_duty", "sabbatical", "accident", "paid", "unpaid", "holiday", "personal", "in_lieu", "bereavement", "other"]
const TIME_OFF_TYPE_ALIASES = {
  sick: ["sickness", "sickleave", "illness"],
  vacation: ["pto", "paidtimeoff", "holidays", "annual"],
  maternity_leave: ["maternity", "parental", "parentalleave", "paternity", "paternityleave"],
  bereavement: ["compassionate", "compassionateleave", "bereavementleave"],
  unpaid: ["unpaidleave"]
}

const HRIS_TIME_OFF: UnifiedModel = {
  name: "time off request",
  fields: [
    ...ids(),
    str("employee_id", "worker_id", "person_id", "employee_uuid", "?employee"),
    str("remote_employee_id", "employee_id", "worker_id", "person_id", "employee_uuid"),
    str("approver_id", "approved_by", "approved_by_id", "reviewer_id", "manager_id"),
    str("remote_approver_id", "approver_id", "approved_by_id", "reviewer_id"),
    oneOf("status", ["approved", "cancelled", "rejected", "pending", "deleted", "draft"], ["state", "approval_status", "request_status"], {
      approved: ["accepted", "confirmed"],
      cancelled: ["canceled", "withdrawn"],
      rejected: ["declined", "denied", "refused"],
      pending: ["requested", "awaitingapproval", "submitted", "open", "inreview"]
    }),
    oneOf("type", TIME_OFF_TYPES, ["time_off_type", "absence_type", "leave_type", "type_name", "category", "?policy_type"], TIME_OFF_TYPE_ALIASES),
    str("start_date", "start", "starts_at", "start_at", "from", "from_date", "date_from", "start_time", "start_on", "first_day"),
    str("end_date", "end", "ends_at", "end_at", "to", "to_date", "date_to", "end_time", "end_on", "last_day"),
    bool("start_half_day", "half_day_start", "start_is_half_day", "half_day_at_start"),
    bool("end_half_day", "half_day_end", "end_is_half_day", "half_day_at_end"),
    str("duration", "days", "hours", "amount", "days_count", "effective_duration", "duration_days", "number_of_days", "?units"),
    str("time_off_policy_id", "policy_id", "time_off_type_id", "absence_type_id", "leave_type_id", "type_id"),
    str("remote_time_off_policy_id", "policy_id", "time_off_type_id", "absence_type_id", "leave_type_id", "type_id"),
    str("reason.name", "reason", "reason_name", "?note"),
    str("comment", "comments", "note", "notes", "employee_note", "request_note", "message", "description"),
    CREATED,
    UPDATED
  ]
}

const REFERENCE = (name: string): UnifiedModel => ({
  name,
  fields: [...ids(), NAME, bool("active", "is_active", "enabled", "is_enabled", "?status")]
})

const HRIS_TIME_OFF_POLICY: UnifiedModel = {
  name: "time off policy",
  fields: [
    ...ids(),
    NAME,
    str("description", "details", "summary"),
    oneOf("type", TIME_OFF_TYPES, ["policy_type", "time_off_type", "absence_type", "leave_type", "category"], TIME_OFF_TYPE_ALIASES),
    oneOf("duration_unit", ["minutes", "hours", "days", "weeks", "months", "years", "unknown"], ["unit", "time_unit", "tracking_unit", "accrual_unit", "unit_of_time"], {
      hours: ["hour", "hourly"],
      days: ["day", "daily"],
      minutes: ["minute"],
      weeks: ["week"]
    }),
    CREATED,
    UPDATED
  ]
}

const HRIS_TIME_OFF_BALANCE: UnifiedModel = {
  name: "time off balance",
  fields: [
    ...ids(),
    str("employee_id", "worker_id", "person_id"),
    str("remote_employee_id", "employee_id", "worker_id", "person_id"),
    str("policy_id", "time_off_policy_id", "time_off_type_id", "absence_type_id", "leave_type_id", "type_id"),
    str("remote_policy_id", "policy_id", "time_off_policy_id", "time_off_type_id", "absence_type_id", "type_id"),
    num("current_balance", "balance", "available", "remaining", "available_balance", "remaining_balance", "current", "balance_available"),
    num("initial_balance", "entitlement", "allowance", "opening_balance", "initial", "accrued", "entitled"),
    oneOf("balance_unit", ["minutes", "hours", "days", "weeks", "months", "years", "unknown"], ["unit", "time_unit", "tracking_unit", "duration_unit"], {
      hours: ["hour"],
      days: ["day"],
      minutes: ["minute"]
    }),
    date("balance_start_date", "period_start", "start_date", "valid_from", "cycle_start"),
    date("balance_expiry_date", "period_end", "expiry_date", "expires_at", "valid_to", "cycle_end", "end_date"),
    bool("is_unlimited", "unlimited", "has_unlimited_balance"),
    UPDATED
  ]
}

const HRIS_LOCATION: UnifiedModel = {
  name: "location",
  fields: [
    ...ids(),
    str("name", "title", "label", "display_name", "location_name", "office_name", "site_name"),
    str("phone_number", "phone", "telephone", "phone_no"),
    ...addressFields(undefined, ["address", "location_address", "postal_address", "office_address", "physical_address"]),
    oneOf("location_type", ["home", "work"], ["type", "address_type"], { work: ["office", "business", "headquarters", "hq", "site"] }),
    str("employee_id", "worker_id"),
    CREATED,
    UPDATED
  ]
}

const HRIS_COMPANY: UnifiedModel = {
  name: "company",
  fields: [
    ...ids(),
    str("name", "company_name", "trade_name", "title", "label", "entity_name"),
    str("full_name", "legal_name", "registered_name", "legal_entity_name"),
    str("display_name", "short_name", "?name"),
    CREATED,
    UPDATED
  ]
}

const GROUP_FIELDS: ReadonlyArray<UnifiedField> = [
  ...ids(),
  str("name", "title", "label", "display_name", "group_name", "department_name", "team_name"),
  strs("parent_ids", "parent_id", "parent", "parent_group_id", "parent_department_id", "parent_team_id", "parent_uuid"),
  strs("remote_parent_ids", "parent_id", "parent_group_id", "parent_department_id", "parent_team_id"),
  strs("owner_ids", "owner_id", "manager_id", "head_id", "lead_id", "manager", "head"),
  strs("remote_owner_ids", "owner_id", "manager_id", "head_id", "lead_id"),
  str("company_id", "legal_entity_id", "employer_id", "entity_id"),
  str("remote_company_id", "company_id", "legal_entity_id", "employer_id")
]

const group = (name: string): UnifiedModel => ({
  name,
  fields: [
    ...GROUP_FIELDS,
    oneOf("type", ["workspace", "team", "department", "group", "organization", "cost_center"], ["group_type", "kind", "category", "level", "?type_name"], {
      department: ["dept"],
      cost_center: ["costcenter", "costcentre"],
      organization: ["organisation", "org", "company"]
    })
  ]
})

const HRIS_JOB: UnifiedModel = {
  name: "job",
  fields: [
    ...ids(),
    str("code", "job_code", "reference", "job_number", "ref", "short_code", "external_id"),
    str("title", "name", "job_title", "label", "display_name", "job_name", "position_title"),
    str("description", "job_description", "summary", "details"),
    oneOf("status", ["draft", "pending", "archived", "closed", "open", "deleted"], ["state", "job_status"], {
      open: ["active", "published", "live"],
      closed: ["inactive", "filled"],
      archived: ["disabled"]
    }),
    CREATED,
    UPDATED
  ]
}

const HRIS_POSITION: UnifiedModel = {
  name: "position",
  fields: [
    ...ids(),
    str("job_id", "job_profile_id", "job_code_id"),
    str("title", "name", "position_title", "job_title", "label"),
    str("description", "position_description", "summary"),
    str("department_id", "org_unit_id", "team_id"),
    str("location_id", "office_id", "site_id", "work_location_id"),
    str("employment_type", "worker_type", "employee_type", "type"),
    oneOf("status", ["open", "draft", "closed", "paused"], ["state", "position_status"], { open: ["active", "vacant"], closed: ["filled", "inactive"], paused: ["frozen", "onhold"] }),
    date("posted_date", "posted_at", "published_at", "opened_at", "open_date")
  ]
}

const HRIS_DOCUMENT: UnifiedModel = {
  name: "employee document",
  fields: [
    ...ids(),
    str("name", "file_name", "filename", "title", "document_name", "label", "original_filename"),
    str("category_id", "folder_id", "document_category_id", "category_uuid", "document_type_id"),
    oneOf(
      "category",
      ["application", "academic", "contract", "certificates", "visa", "passport", "driver_license", "payslip", "payroll", "appraisal", "resume", "policy", "cover_letter", "offer_letter", "policy_agreement", "home_address", "national_id", "confidential", "signed", "shared", "other", "benefit", "id_verification", "background_check"],
      ["category_name", "document_category", "folder", "folder_name", "document_type", "?type"],
      { payslip: ["payslips", "paystub", "payroll_slip"], resume: ["cv", "curriculumvitae"], certificates: ["certificate", "certification"], contract: ["contracts", "employmentcontract"] }
    ),
    str("remote_url", "url", "download_url", "file_url", "link", "href"),
    oneOf("file_format", "code", ["content_type", "mime_type", "mimetype", "file_type", "extension", "format"]),
    CREATED,
    UPDATED
  ]
}

const HRIS_BENEFIT: UnifiedModel = {
  name: "benefit",
  fields: [
    ...ids(),
    str("name", "benefit_name", "title", "label", "plan_name", "display_name"),
    oneOf("benefit_type", ["retirement_savings", "health_savings", "other", "health_insurance", "insurance"], ["type", "category", "benefit_category", "plan_type", "kind"], {
      retirement_savings: ["retirement", "pension", "401k", "retirementplan", "401k"],
      health_savings: ["hsa", "fsa", "healthsavingsaccount"],
      health_insurance: ["medical", "health", "dental", "vision"],
      insurance: ["life", "lifeinsurance", "disability"]
    }),
    str("provider", "carrier", "vendor", "provider_name", "carrier_name", "insurer"),
    str("description", "details", "summary"),
    CREATED,
    UPDATED
  ]
}

const HRIS_TIME_ENTRY: UnifiedModel = {
  name: "time entry",
  fields: [
    ...ids(),
    str("employee_id", "worker_id", "person_id", "?employee"),
    str("remote_employee_id", "employee_id", "worker_id", "person_id"),
    date("start_time", "start", "starts_at", "start_at", "clock_in", "clock_in_time", "check_in", "started_at", "time_in"),
    date("end_time", "end", "ends_at", "end_at", "clock_out", "clock_out_time", "check_out", "ended_at", "time_out"),
    num("hours_worked", "hours", "worked_hours", "duration_hours", "total_hours", "?duration"),
    num("break_duration", "break", "break_minutes", "break_time", "breaks_duration", "pause"),
    oneOf("status", ["approved"], ["state", "approval_status"], { approved: ["accepted", "confirmed"] }),
    CREATED,
    UPDATED
  ]
}

const HRIS_SHIFT: UnifiedModel = {
  name: "shift",
  fields: [
    ...ids(),
    str("employee_id", "worker_id", "person_id", "assignee_id", "?employee"),
    str("location_id", "office_id", "site_id", "work_location_id"),
    str("company_id", "legal_entity_id", "employer_id"),
    str("start_time", "start", "starts_at", "start_at"),
    str("end_time", "end", "ends_at", "end_at"),
    str("break_duration", "break", "break_minutes", "break_time"),
    oneOf("status", ["draft", "published", "confirmed", "cancelled"], ["state", "shift_status"], { cancelled: ["canceled"] }),
    oneOf("approval_status", ["pending", "approved", "rejected"], ["approval_state", "approval"], { rejected: ["declined", "denied"] }),
    CREATED,
    UPDATED
  ]
}

const HRIS_TASK: UnifiedModel = {
  name: "task",
  fields: [
    ...ids(),
    str("employee_id", "assignee_id", "assigned_to", "owner_id", "worker_id"),
    str("name", "title", "task_name", "label", "summary"),
    str("description", "details", "body", "instructions"),
    oneOf("type", ["action", "review", "acknowledgment", "edit", "approve"], ["task_type", "kind", "category"], { acknowledgment: ["acknowledge", "acknowledgement", "sign"], approve: ["approval"] }),
    oneOf("status", ["open", "in_progress", "blocked", "completed", "cancelled"], ["state", "task_status"], {
      open: ["todo", "pending", "new", "notstarted"],
      in_progress: ["inprogress", "started", "ongoing"],
      completed: ["done", "complete", "finished", "closed"],
      cancelled: ["canceled", "skipped"]
    }),
    date("due_date", "due_at", "deadline", "due", "due_on"),
    date("completion_date", "completed_at", "done_at", "completed_on", "finished_at"),
    str("assigned_by_employee_id", "assigned_by", "assigner_id", "requester_id", "created_by"),
    str("link_to_task", "url", "link", "task_url", "href"),
    CREATED,
    UPDATED
  ]
}

const HRIS_WORK_ELIGIBILITY: UnifiedModel = {
  name: "work eligibility",
  fields: [
    ...ids(),
    oneOf("type", ["visa", "passport", "driver_license", "birth_certificate", "other"], ["document_type", "kind", "category"], { driver_license: ["driverslicense", "drivinglicence", "drivinglicense"] }),
    str("sub_type", "subtype", "visa_type", "permit_type"),
    date("valid_from", "issue_date", "issued_at", "issued_on", "start_date"),
    date("valid_to", "expiry_date", "expiration_date", "expires_at", "expires_on", "end_date"),
    oneOf("issued_by", "country", ["issuing_country", "country", "issuer_country", "country_of_issue"]),
    str("number", "document_number", "permit_number", "visa_number", "passport_number", "reference")
  ]
}

const SKILL: UnifiedModel = {
  name: "skill",
  fields: [
    ...ids(),
    str("name", "skill_name", "title", "label", "display_name"),
    bool("active", "is_active", "enabled"),
    oneOf("language", "code", ["locale", "language_code", "lang"]),
    CREATED,
    UPDATED
  ]
}

const CUSTOM_FIELD_DEFINITION: UnifiedModel = {
  name: "custom field definition",
  fields: [
    ...ids(),
    str("name", "label", "title", "display_name", "field_name", "key"),
    str("description", "help_text", "hint"),
    oneOf(
      "type",
      ["date", "float", "integer", "list", "checkbox", "text", "boolean", "single_select", "multi_select", "url", "other"],
      ["field_type", "data_type", "value_type", "kind", "input_type"],
      {
        text: ["string", "textarea", "longtext", "shorttext"],
        single_select: ["select", "dropdown", "singleselect", "enum", "picklist"],
        multi_select: ["multiselect", "multipicklist", "multiple_choice"],
        float: ["decimal", "number", "double", "currency"],
        integer: ["int", "long"],
        boolean: ["bool", "yesno"],
        date: ["datetime", "timestamp"]
      }
    )
  ]
}

const EMPLOYEE_NOUNS = ["employee", "person", "worker", "staff", "staff_member", "personnel", "team_member", "employee_directory", "people_directory", "profile", "employee_profile"]

const HRIS: ReadonlyArray<UnifiedResource> = [
  { category: "hris", model: HRIS_EMPLOYEE, nouns: EMPLOYEE_NOUNS, list: "hris_list_employees", get: "hris_get_employee" },
  { category: "hris", model: HRIS_EMPLOYMENT, nouns: ["employment", "contract", "employment_contract", "employment_history", "job_history", "work_history", "job_info", "job_information", "position_history", "employment_detail"], parent: EMPLOYEE_NOUNS, list: "hris_list_employee_employments", get: "hris_get_employee_employment" },
  { category: "hris", model: HRIS_EMPLOYMENT, nouns: ["employment", "employment_contract", "employment_history", "job_history", "work_history", "contract"], list: "hris_list_employments", get: "hris_get_employment" },
  { category: "hris", model: HRIS_TIME_OFF, nouns: ["time_off", "time_off_request", "timeoff", "timeoff_request", "absence", "absence_period", "absence_request", "leave", "leave_request", "vacation", "vacation_request", "pto", "pto_request", "holiday_request", "time_off_entry"], parent: EMPLOYEE_NOUNS, contextNouns: ["request", "entry", "period", "absence"], list: "hris_list_employee_time_off_requests", get: "hris_get_employees_time_off_request" },
  { category: "hris", model: HRIS_TIME_OFF, nouns: ["time_off", "time_off_request", "timeoff", "timeoff_request", "absence", "absence_period", "absence_request", "leave", "leave_request", "vacation_request", "pto_request", "time_off_entry", "who_is_out", "whos_out", "whosout", "out_of_office"], contextNouns: ["request", "entry", "period"], list: "hris_list_time_off_requests", get: "hris_get_time_off_request" },
  { category: "hris", model: REFERENCE("time off type"), nouns: ["time_off_type", "timeoff_type", "absence_type", "leave_type", "time_off_category", "absence_category", "pto_type", "time_off_reason", "absence_reason", "leave_category"], contextNouns: ["type", "policy_type", "category", "reason", "reason_code"], list: "hris_list_time_off_types", get: "hris_get_time_off_type" },
  { category: "hris", model: HRIS_TIME_OFF_POLICY, nouns: ["time_off_policy", "timeoff_policy", "absence_policy", "leave_policy", "pto_policy", "vacation_policy"], parent: EMPLOYEE_NOUNS, contextNouns: ["policy"], list: "hris_list_employee_time_off_policies" },
  { category: "hris", model: HRIS_TIME_OFF_POLICY, nouns: ["time_off_policy", "timeoff_policy", "absence_policy", "leave_policy", "pto_policy", "vacation_policy"], contextNouns: ["policy"], list: "hris_list_time_off_policies", get: "hris_get_time_off_policy" },
  { category: "hris", model: HRIS_TIME_OFF_BALANCE, nouns: ["time_off_balance", "timeoff_balance", "balance", "absence_balance", "leave_balance", "pto_balance", "vacation_balance", "accrual", "entitlement"], parent: EMPLOYEE_NOUNS, list: "hris_list_employee_time_off_balances", get: "hris_get_employee_time_off_balance" },
  { category: "hris", model: HRIS_LOCATION, nouns: ["location", "office", "site", "work_location", "workplace", "branch", "work_site", "establishment"], list: "hris_list_locations", get: "hris_get_location" },
  { category: "hris", model: HRIS_COMPANY, nouns: ["company", "legal_entity", "employer", "organization", "organisation", "subsidiary"], list: "hris_list_companies", get: "hris_get_company" },
  { category: "hris", model: group("department"), nouns: ["department", "dept"], list: "hris_list_department_groups", get: "hris_get_department_group" },
  { category: "hris", model: group("team"), nouns: ["team"], list: "hris_list_team_groups", get: "hris_get_team_group" },
  { category: "hris", model: group("division"), nouns: ["division", "business_unit"], list: "hris_list_division_groups", get: "hris_get_division_group" },
  { category: "hris", model: group("cost center"), nouns: ["cost_center", "costcenter", "cost_centre", "costcentre"], list: "hris_list_cost_center_groups", get: "hris_get_cost_center_group" },
  { category: "hris", model: group("group"), nouns: ["group", "org_unit", "organizational_unit", "organisational_unit", "organization_unit", "organisation_unit", "supervisory_organization", "org_chart", "organization_structure"], list: "hris_list_groups", get: "hris_get_group" },
  { category: "hris", model: HRIS_JOB, nouns: ["job", "job_profile", "job_title", "job_code", "job_role", "job_family"], list: "hris_list_jobs", get: "hris_get_job" },
  { category: "hris", model: HRIS_POSITION, nouns: ["position"], list: "hris_list_positions", get: "hris_get_position" },
  { category: "hris", model: HRIS_DOCUMENT, nouns: ["document", "file", "attachment", "employee_document", "employee_file", "doc"], parent: EMPLOYEE_NOUNS, list: "hris_list_employee_documents", get: "hris_get_employee_document" },
  { category: "hris", model: REFERENCE("employee document category"), nouns: ["document_category", "document_type", "file_category", "document_folder", "employee_document_category", "folder"], list: "hris_list_employee_categories", get: "hris_get_employee_document_category" },
  { category: "hris", model: HRIS_BENEFIT, nouns: ["benefit", "benefit_plan", "company_benefit", "benefit_program", "benefit_type"], list: "hris_list_benefits", get: "hris_get_benefit" },
  { category: "hris", model: HRIS_TIME_ENTRY, nouns: ["time_entry", "attendance", "timesheet", "time_sheet", "time_record", "time_card", "timecard", "clock_entry", "attendance_period", "punch", "time_tracking"], list: "hris_list_time_entries", get: "hris_get_time_entries" },
  { category: "hris", model: HRIS_SHIFT, nouns: ["shift", "work_shift", "scheduled_shift"], parent: EMPLOYEE_NOUNS, list: "hris_list_employee_shifts", get: "hris_get_employee_shift" },
  { category: "hris", model: HRIS_SHIFT, nouns: ["shift", "work_shift", "scheduled_shift"], list: "hris_list_shifts", get: "hris_get_shift" },
  { category: "hris", model: HRIS_TASK, nouns: ["task", "todo", "onboarding_task", "offboarding_task"], parent: EMPLOYEE_NOUNS, list: "hris_list_employee_tasks", get: "hris_get_employee_task" },
  { category: "hris", model: HRIS_TASK, nouns: ["task", "todo", "onboarding_task", "offboarding_task"], list: "hris_list_tasks", get: "hris_get_task" },
  { category: "hris", model: HRIS_WORK_ELIGIBILITY, nouns: ["work_eligibility", "work_permit", "visa", "right_to_work", "work_authorization", "identity_document", "id_document"], parent: EMPLOYEE_NOUNS, list: "hris_list_employee_work_eligibility", get: "hris_get_employees_work_eligibility" },
  { category: "hris", model: SKILL, nouns: ["skill", "competency", "competence"], parent: EMPLOYEE_NOUNS, list: "hris_list_employee_skills", get: "hris_get_employee_skill" },
  { category: "hris", model: CUSTOM_FIELD_DEFINITION, nouns: ["custom_field", "custom_field_definition", "custom_attribute", "custom_attribute_definition", "field_definition", "attribute_definition", "custom_column"], list: "hris_list_employee_custom_field_definitions", get: "hris_get_employee_custom_field_definition" }
]

const ATS_CANDIDATE: UnifiedModel = {
  name: "candidate",
  fields: [
    ...ids(),
    str("name", "full_name", "fullname", "display_name", "name_full"),
    str("first_name", "given_name", "firstname", "forename", "name_first"),
    str("last_name", "family_name", "surname", "lastname", "name_last"),
    str("email", "email_address", "primary_email", "work_email", "personal_email", "contact_email", "?emails"),
    str("phone", "phone_number", "mobile", "mobile_phone", "primary_phone", "telephone", "?phones", "?phone_numbers"),
    str("company", "current_company", "company_name", "employer", "current_employer", "organization"),
    str("title", "headline", "job_title", "current_title", "current_position", "position", "?role"),
    strs("application_ids", "applications", "application_id", "opportunity_ids", "?jobs"),
    strs("remote_application_ids", "application_ids", "application_id", "opportunity_ids"),
    date("hired_at", "hire_date", "hired_on", "hired_date"),
    str("country", "country_code", "location_country", "address_country", "?location"),
    CREATED,
    UPDATED
  ]
}

const APPLICATION_STATUS = ["active", "assessment", "background_check", "converted", "declined_by_candidate", "hired", "interview", "lead", "offer", "reference_check", "rejected", "review", "screen", "new", "onboarding", "created", "accepted", "short_list", "approved"]

const ATS_APPLICATION: UnifiedModel = {
  name: "application",
  fields: [
    ...ids(),
    str("candidate_id", "applicant_id", "candidate_uuid", "person_id", "contact_id", "profile_id", "?candidate"),
    str("remote_candidate_id", "candidate_id", "applicant_id", "candidate_uuid", "person_id", "contact_id"),
    str("job_id", "job_uuid", "requisition_id", "opening_id", "vacancy_id", "position_id", "job_opening_id", "?job", "?posting_id"),
    str("remote_job_id", "job_id", "job_uuid", "requisition_id", "opening_id", "vacancy_id", "position_id"),
    str("job_posting_id", "posting_id", "job_post_id", "job_ad_id", "advert_id"),
    str("interview_stage_id", "stage_id", "current_stage_id", "pipeline_stage_id", "workflow_stage_id", "status_id"),
    str("remote_interview_stage_id", "stage_id", "current_stage_id", "pipeline_stage_id", "workflow_stage_id"),
    str("application_stage_id", "stage_id", "current_stage_id", "pipeline_stage_id", "workflow_stage_id"),
    str("remote_application_stage_id", "stage_id", "current_stage_id", "pipeline_stage_id", "workflow_stage_id"),
    str("interview_stage.name", "stage_name", "current_stage_name", "stage", "current_stage", "pipeline_stage", "?status"),
    str("application_stage.name", "stage_name", "current_stage_name", "stage", "current_stage", "pipeline_stage"),
    date("rejected_at", "rejected_on", "rejection_date", "disqualified_at", "archived_at"),
    str("location_id", "office_id", "job_location_id"),
    oneOf("application_status", APPLICATION_STATUS, ["status", "state", "application_state", "stage_type"], {
      active: ["inprogress", "open", "applied", "inprocess", "ongoing"],
      rejected: ["declined", "disqualified", "archived", "refused"],
      hired: ["hire", "employed", "placed"],
      new: ["applied", "received", "submitted"],
      declined_by_candidate: ["withdrawn", "withdrew", "candidatewithdrew"],
      screen: ["screening", "phonescreen"],
      interview: ["interviewing", "interviews"],
      offer: ["offered", "offersent"],
      short_list: ["shortlisted", "shortlist"]
    }),
    str("source.name", "source", "source_name", "origin", "channel", "referral_source"),
    str("source.id", "source_id", "origin_id", "channel_id"),
    CREATED,
    UPDATED
  ]
}

const ATS_JOB: UnifiedModel = {
  name: "job",
  fields: [
    ...ids(),
    str("code", "job_code", "requisition_id", "requisition_number", "reference", "ref", "job_number", "req_id", "external_id", "shortcode"),
    str("title", "name", "job_title", "position_title", "label", "job_name"),
    str("description", "job_description", "summary", "details", "content"),
    str("status", "state", "job_state"),
    oneOf("job_status", ["published", "draft", "pending", "internal", "archived", "closed", "open", "deleted", "on_hold"], ["status", "state", "job_state"], {
      open: ["active", "live", "opened"],
      published: ["posted", "public"],
      closed: ["filled", "inactive", "ended", "finished"],
      on_hold: ["onhold", "paused", "hold", "frozen"],
      archived: ["archive"]
    }),
    strs("department_ids", "department_id", "departments", "team_ids", "team_id", "division_id"),
    strs("remote_department_ids", "department_ids", "department_id", "team_id"),
    strs("location_ids", "location_id", "locations", "office_ids", "office_id", "offices"),
    strs("remote_location_ids", "location_ids", "location_id", "office_ids", "office_id"),
    oneOf("confidential", ["true", "false"], ["is_confidential", "private", "is_private", "secret"]),
    CREATED,
    UPDATED
  ]
}

const ATS_JOB_POSTING: UnifiedModel = {
  name: "job posting",
  fields: [
    ...ids(),
    str("title", "name", "job_title", "headline", "label", "position_title"),
    oneOf("internal", ["true", "false"], ["is_internal", "internal_only", "?private"]),
    oneOf("status", ["live", "draft", "pending", "internal", "rejected", "closed", "archived"], ["state", "posting_status", "publication_status"], {
      live: ["published", "active", "open", "online", "posted", "public"],
      closed: ["inactive", "expired", "unpublished", "offline", "ended"],
      archived: ["archive", "deleted"]
    }),
    str("job_id", "job_uuid", "requisition_id", "opening_id", "vacancy_id", "position_id", "?job"),
    str("remote_job_id", "job_id", "job_uuid", "requisition_id", "opening_id", "vacancy_id"),
    str("content.plain", "description_plain", "plain_text_description", "description_text", "text", "?description"),
    str("content.html", "description_html", "html_description", "html", "content_html", "?description", "?content"),
    oneOf("employment_type", ["contractor", "intern", "permanent", "apprentice", "freelance", "temporary", "seasonal", "volunteer", "casual"], ["job_type", "employment", "type_of_employment", "?type"], {
      contractor: ["contract"],
      temporary: ["temp", "fixedterm"],
      permanent: ["fulltime", "regular"],
      intern: ["internship"]
    }),
    oneOf("employment_contract_type", ["full_time", "shifts", "part_time"], ["schedule", "work_schedule", "?employment_type", "?commitment"], {
      full_time: ["fulltime"],
      part_time: ["parttime"]
    }),
    str("external_url", "url", "posting_url", "job_url", "public_url", "careers_url", "hosted_url", "link", "href"),
    str("external_apply_url", "apply_url", "application_url", "apply_link", "application_form_url"),
    date("start_date", "starts_at", "start_on", "published_at", "posted_at", "published_on"),
    CREATED,
    UPDATED
  ]
}

const ATS_NAMED: UnifiedModel = { name: "named record", fields: [...ids(), NAME] }

const ATS_USER: UnifiedModel = {
  name: "user",
  fields: [
    ...ids(),
    str("email", "email_address", "work_email", "primary_email", "login", "username"),
    str("first_name", "given_name", "firstname", "forename", "name_first"),
    str("last_name", "family_name", "surname", "lastname", "name_last"),
    str("name", "full_name", "fullname", "display_name", "name_full"),
    str("phone", "phone_number", "mobile", "telephone", "work_phone")
  ]
}

const STAGE: UnifiedModel = {
  name: "interview stage",
  fields: [
    ...ids(),
    str("name", "title", "label", "stage_name", "display_name", "text"),
    num("order", "position", "index", "sort_order", "rank", "priority", "sequence", "order_index", "step"),
    CREATED,
    UPDATED
  ]
}

const ATS_INTERVIEW: UnifiedModel = {
  name: "interview",
  fields: [
    ...ids(),
    str("application_id", "candidacy_id", "opportunity_id", "?application"),
    str("remote_application_id", "application_id", "candidacy_id", "opportunity_id"),
    str("interview_stage_id", "stage_id", "interview_plan_id", "pipeline_stage_id"),
    str("remote_interview_stage_id", "stage_id", "pipeline_stage_id"),
    oneOf("interview_status", ["unscheduled", "scheduled", "completed", "cancelled", "pending_feedback"], ["status", "state"], {
      cancelled: ["canceled"],
      completed: ["complete", "done", "finished"],
      scheduled: ["confirmed", "booked", "planned"],
      pending_feedback: ["awaitingfeedback", "feedbackpending"]
    }),
    strs("interviewer_ids", "interviewers", "interviewer_id", "attendee_ids", "participant_ids"),
    strs("remote_interviewer_ids", "interviewer_ids", "interviewer_id", "attendee_ids"),
    date("start_at", "start", "starts_at", "start_time", "scheduled_at", "begins_at", "date"),
    date("end_at", "end", "ends_at", "end_time", "finishes_at"),
    str("meeting_url", "video_url", "conference_url", "video_conferencing_url", "meeting_link", "join_url", "location_url"),
    CREATED,
    UPDATED
  ]
}

const ATS_OFFER: UnifiedModel = {
  name: "offer",
  fields: [
    ...ids(),
    str("application_id", "candidacy_id", "opportunity_id", "?application"),
    str("remote_application_id", "application_id", "candidacy_id", "opportunity_id"),
    date("start_date", "starts_at", "start_on", "proposed_start_date", "starting_date"),
    oneOf("offer_status", ["pending", "retracted", "accepted", "rejected", "created", "approved", "not_approved"], ["status", "state", "offer_state"], {
      pending: ["sent", "open", "awaitingresponse", "extended", "outstanding"],
      accepted: ["signed", "agreed"],
      rejected: ["declined", "refused"],
      retracted: ["withdrawn", "deprecated", "cancelled", "canceled", "revoked"],
      created: ["draft", "new", "unresolved"],
      not_approved: ["notapproved", "denied"]
    }),
    num("salary", "amount", "compensation", "base_salary", "salary_amount", "annual_salary"),
    str("currency", "currency_code", "salary_currency"),
    CREATED,
    UPDATED
  ]
}

const ATS_NOTE: UnifiedModel = {
  name: "note",
  fields: [
    ...ids(),
    str("author_id", "user_id", "created_by", "creator_id", "owner_id", "author", "?user"),
    str("remote_author_id", "author_id", "user_id", "created_by", "creator_id"),
    oneOf("visibility", ["private", "public"], ["privacy", "access", "is_private", "?secret"], { private: ["true", "restricted", "adminonly", "secret"], public: ["false", "everyone", "all"] }),
    str("content[].body", "body", "text", "content", "note", "message", "value", "comment"),
    date("deleted_at", "deleted", "removed_at"),
    CREATED,
    UPDATED
  ]
}

const ATS_SCORECARD: UnifiedModel = {
  name: "scorecard",
  fields: [
    ...ids(),
    str("application_id", "candidacy_id", "opportunity_id"),
    str("interview_id", "interview_uuid", "meeting_id"),
    str("author_id", "interviewer_id", "submitted_by", "user_id", "reviewer_id"),
    oneOf("overall_recommendation", ["strong_yes", "yes", "no", "strong_no", "no_decision"], ["recommendation", "overall_rating", "score", "rating", "decision", "verdict"], {
      strong_yes: ["definitelyyes", "stronghire", "strongyes", "4"],
      yes: ["hire", "3"],
      no: ["nohire", "2"],
      strong_no: ["definitelynot", "strongnohire", "strongno", "1"],
      no_decision: ["nodecision", "undecided", "neutral", "none"]
    }),
    CREATED,
    UPDATED
  ]
}

const ATS_APPLICATION_NOUNS = ["application", "candidacy", "job_application", "submission", "opportunity", "applicant"]
const ATS_CANDIDATE_NOUNS = ["candidate", "applicant", "prospect", "talent", "person"]

const ATS: ReadonlyArray<UnifiedResource> = [
  { category: "ats", model: ATS_NOTE, nouns: ["note", "comment", "feedback_note"], parent: ATS_APPLICATION_NOUNS, list: "ats_list_application_notes", get: "ats_get_application_note" },
  { category: "ats", model: ATS_NOTE, nouns: ["note", "comment"], parent: ATS_CANDIDATE_NOUNS, list: "ats_list_candidate_notes", get: "ats_get_candidate_note" },
  { category: "ats", model: ATS_OFFER, nouns: ["offer", "offer_letter"], parent: ATS_APPLICATION_NOUNS, list: "ats_list_applications_offers", get: "ats_get_application_offer" },
  { category: "ats", model: ATS_SCORECARD, nouns: ["scorecard", "feedback", "evaluation", "assessment_result", "review", "rating"], parent: ATS_APPLICATION_NOUNS, list: "ats_list_application_scorecards", get: "ats_get_application_scorecard" },
  { category: "ats", model: ATS_INTERVIEW, nouns: ["scheduled_interview", "interview", "interview_event", "meeting", "event"], parent: ATS_APPLICATION_NOUNS, list: "ats_list_applications_scheduled_interviews", get: "ats_get_application_scheduled_interview" },
  { category: "ats", model: HRIS_DOCUMENT, nouns: ["document", "file", "attachment", "resume", "cv"], parent: [...ATS_APPLICATION_NOUNS, ...ATS_CANDIDATE_NOUNS], list: "ats_list_application_documents", get: "ats_get_application_document" },
  { category: "ats", model: STAGE, nouns: ["application_stage", "stage", "pipeline_stage", "workflow_stage", "hiring_stage", "interview_stage", "status"], parent: ["job", "requisition", "opening", "vacancy", "job_opening"], list: "ats_list_job_application_stages", get: "ats_get_job_application_stage" },
  { category: "ats", model: ATS_CANDIDATE, nouns: ATS_CANDIDATE_NOUNS, list: "ats_list_candidates", get: "ats_get_candidate" },
  { category: "ats", model: ATS_APPLICATION, nouns: ATS_APPLICATION_NOUNS, list: "ats_list_applications", get: "ats_get_application" },
  { category: "ats", model: ATS_JOB, nouns: ["job", "requisition", "job_requisition", "opening", "job_opening", "vacancy", "position", "job_order", "req"], list: "ats_list_jobs", get: "ats_get_job" },
  { category: "ats", model: ATS_JOB_POSTING, nouns: ["job_posting", "posting", "job_post", "job_ad", "advert", "job_advert", "job_advertisement", "publication", "job_board_post", "job_listing"], list: "ats_list_job_postings", get: "ats_get_job_posting" },
  { category: "ats", model: ATS_NAMED, nouns: ["department", "dept", "team", "division", "business_unit"], list: "ats_list_departments", get: "ats_get_department" },
  { category: "ats", model: ATS_NAMED, nouns: ["location", "office", "site", "work_location"], list: "ats_list_locations", get: "ats_get_location" },
  { category: "ats", model: ATS_USER, nouns: ["user", "recruiter", "hiring_manager", "member", "team_member", "interviewer", "account_user"], list: "ats_list_users", get: "ats_get_user" },
  { category: "ats", model: STAGE, nouns: ["interview_stage", "stage", "pipeline_stage", "workflow_stage", "hiring_stage", "recruiting_stage"], list: "ats_list_interview_stages", get: "ats_get_interview_stage" },
  { category: "ats", model: STAGE, nouns: ["application_stage", "application_status"], list: "ats_list_application_stages", get: "ats_get_application_stage" },
  { category: "ats", model: ATS_INTERVIEW, nouns: ["interview", "scheduled_interview", "interview_event"], list: "ats_list_interviews", get: "ats_get_interview" },
  { category: "ats", model: ATS_OFFER, nouns: ["offer", "offer_letter"], list: "ats_list_offers", get: "ats_get_offer" },
  { category: "ats", model: { name: "rejected reason", fields: [...ids(), str("label", "name", "title", "text", "reason"), str("type", "kind", "category", "reason_type")] }, nouns: ["rejected_reason", "rejection_reason", "archive_reason", "disqualify_reason", "disqualification_reason", "reject_reason", "decline_reason"], list: "ats_list_rejected_reasons", get: "ats_get_rejected_reason" },
  { category: "ats", model: { name: "list", fields: [...ids(), NAME, CREATED, UPDATED] }, nouns: ["talent_pool", "pool", "candidate_list", "talent_pipeline"], list: "ats_list_lists", get: "ats_get_list" }
]

const DURATION_NOTE = "the unified duration is ISO 8601 (PT1H30M); check the provider's format (minutes, seconds or free text need converting)"

const LMS_USER: UnifiedModel = {
  name: "user",
  fields: [
    ...ids(),
    str("external_reference", "external_id", "employee_id", "employee_number", "reference", "sso_id", "custom_id"),
    str("name", "full_name", "fullname", "display_name", "name_full", "?login", "?username"),
    str("email", "email_address", "work_email", "primary_email", "?login", "?username"),
    str("phone_number", "phone", "mobile", "telephone", "mobile_phone"),
    bool("active", "is_active", "enabled", "is_enabled", "?status", "?disabled"),
    CREATED,
    UPDATED
  ]
}

const LMS_COURSE: UnifiedModel = {
  name: "course",
  fields: [
    ...ids(),
    str("external_reference", "external_id", "code", "course_code", "reference", "sku", "slug"),
    strs("content_ids", "content", "lesson_ids", "chapter_ids", "module_ids", "item_ids"),
    strs("remote_content_ids", "content_ids", "lesson_ids", "chapter_ids", "module_ids"),
    str("title", "name", "course_name", "label", "display_name"),
    str("description", "summary", "details", "short_description", "course_description", "overview"),
    str("cover_url", "image_url", "thumbnail_url", "cover_image_url", "course_card_image_url", "banner_image_url", "avatar", "image"),
    str("url", "course_url", "link", "href", "launch_url", "landing_page_url", "public_url"),
    bool("active", "is_active", "published", "is_published", "enabled", "?status"),
    field("duration", "string", ["length", "estimated_duration", "duration_minutes", "time_required", "course_duration"], { note: DURATION_NOTE }),
    str("provider", "vendor", "source", "author_name", "instructor_name"),
    CREATED,
    UPDATED
  ]
}

const LMS_CONTENT: UnifiedModel = {
  name: "content",
  fields: [
    ...ids(),
    str("external_reference", "external_id", "code", "reference", "slug"),
    strs("course_ids", "course_id", "courses"),
    strs("remote_course_ids", "course_ids", "course_id"),
    str("title", "name", "label", "display_name", "lesson_name"),
    str("description", "summary", "details", "body"),
    str("short_description", "summary", "excerpt", "teaser"),
    str("content_url", "url", "launch_url", "link", "href", "player_url", "asset_url", "file_url"),
    str("mobile_launch_content_url", "mobile_url", "mobile_launch_url"),
    oneOf("content_type", ["video", "quiz", "document", "audio", "article"], ["type", "kind", "lesson_type", "media_type", "content_kind", "category"], {
      video: ["movie", "videolesson"],
      quiz: ["test", "exam", "assessment", "survey"],
      document: ["pdf", "file", "presentation", "download", "scorm"],
      article: ["text", "html", "page", "webpage", "reading"],
      audio: ["podcast", "sound"]
    }),
    str("cover_url", "image_url", "thumbnail_url", "image", "thumbnail"),
    bool("active", "is_active", "published", "is_published", "enabled"),
    field("duration", "string", ["length", "estimated_duration", "duration_minutes", "duration_seconds"], { note: DURATION_NOTE }),
    num("order", "position", "index", "sort_order", "sequence"),
    str("provider", "vendor", "source"),
    strs("tags", "tag", "keywords", "labels"),
    CREATED,
    UPDATED
  ]
}

const LEARNING_RESULT = { pass: ["passed", "success", "successful", "pass"], fail: ["failed", "failure", "fail"] }

const LMS_ASSIGNMENT: UnifiedModel = {
  name: "assignment",
  fields: [
    ...ids(),
    str("external_reference", "external_id", "reference"),
    str("learning_object_id", "course_id", "content_id", "item_id", "learning_item_id", "training_id", "module_id"),
    str("remote_learning_object_id", "course_id", "content_id", "item_id", "learning_item_id", "training_id"),
    field("progress", "string", ["completion_percentage", "percent_complete", "percentage_completed", "completion_rate", "progress_percentage", "percentage", "completion", "percent_completed"], {
      note: "the unified progress is a percentage from 0 to 100; check the provider's scale (0-1 fractions are common)"
    }),
    date("assigned_at", "assigned_date", "enrolled_at", "enrolled_on", "enrollment_date", "enrolled_date", "assigned_on", "assignment_date", "registered_at", "activated_at"),
    date("due_date", "due_at", "deadline", "expires_at", "expiry_date", "expired_at", "due_on", "expiration_date"),
    date("completed_at", "completion_date", "completed_on", "finished_at", "date_completed"),
    oneOf("status", ["pending", "in_progress", "completed"], ["completion_status", "state", "enrollment_status", "progress_status"], {
      pending: ["notstarted", "notattempted", "enrolled", "assigned", "new", "todo", "registered"],
      in_progress: ["inprogress", "started", "incomplete", "ongoing", "active"],
      completed: ["complete", "done", "finished", "passed", "succeeded"]
    }),
    oneOf("learning_object_type", ["content", "course", "collection"], ["item_type", "object_type", "type", "kind"], { collection: ["path", "learningpath", "program", "curriculum", "bundle"] }),
    str("user_id", "learner_id", "student_id", "member_id", "person_id", "employee_id", "?user"),
    str("remote_user_id", "user_id", "learner_id", "student_id", "member_id"),
    str("certificate_url", "certificate", "certificate_link", "certificate_download_url", "certification_url"),
    oneOf("result", ["Pass", "Fail"], ["outcome", "grade_result", "result_status", "?passed"], LEARNING_RESULT),
    str("course_id", "training_id", "program_id"),
    str("remote_course_id", "course_id", "training_id"),
    CREATED,
    UPDATED
  ]
}

const LMS_COMPLETION: UnifiedModel = {
  name: "completion",
  fields: [
    ...ids(),
    str("external_reference", "external_id", "reference"),
    oneOf("result", ["Pass", "Fail"], ["outcome", "status", "result_status", "?passed"], LEARNING_RESULT),
    date("completed_at", "completion_date", "completed_on", "finished_at", "date_completed", "completed"),
    oneOf("learning_object_type", ["content", "course", "collection"], ["item_type", "object_type", "type", "kind"], { collection: ["path", "learningpath", "program", "curriculum"] }),
    str("learning_object_id", "course_id", "content_id", "item_id", "learning_item_id", "training_id"),
    str("remote_learning_object_id", "course_id", "content_id", "item_id", "learning_item_id"),
    str("user_id", "learner_id", "student_id", "member_id", "person_id", "employee_id", "?user"),
    str("remote_user_id", "user_id", "learner_id", "student_id", "member_id"),
    str("time_spent", "duration", "time_taken", "total_time", "seconds_spent", "minutes_spent"),
    str("certificate_url", "certificate", "certificate_link", "certificate_download_url"),
    str("content_id", "lesson_id", "item_id"),
    str("remote_content_id", "content_id", "lesson_id"),
    str("course_id", "training_id", "program_id"),
    str("remote_course_id", "course_id", "training_id"),
    num("score.percentage", "score", "percentage", "score_percentage", "grade", "percent_score"),
    str("score.raw_value", "raw_score", "score_raw", "points"),
    CREATED,
    UPDATED
  ]
}

const LMS_CATEGORY: UnifiedModel = {
  name: "category",
  fields: [
    ...ids(),
    str("name", "title", "label", "display_name", "category_name"),
    bool("active", "is_active", "enabled", "visible"),
    oneOf("level", ["primary", "secondary", "tertiary"], ["hierarchy", "depth", "tier"], { primary: ["1", "top", "root"], secondary: ["2"], tertiary: ["3"] }),
    oneOf("language", "code", ["locale", "language_code", "lang"])
  ]
}

const LMS_USER_NOUNS = ["user", "learner", "student", "member", "person", "employee", "trainee", "participant", "people"]

const LMS: ReadonlyArray<UnifiedResource> = [
  { category: "lms", model: LMS_ASSIGNMENT, nouns: ["assignment", "enrollment", "enrolment", "registration", "course_assignment", "course", "training", "learning_assignment", "user_course"], parent: LMS_USER_NOUNS, list: "lms_list_user_assignments", get: "lms_get_user_assignment" },
  { category: "lms", model: LMS_COMPLETION, nouns: ["completion", "course_completion", "result", "transcript", "certificate", "certification", "achievement", "progress"], parent: LMS_USER_NOUNS, list: "lms_list_user_completions", get: "lms_get_user_completion" },
  { category: "lms", model: LMS_USER, nouns: LMS_USER_NOUNS, list: "lms_list_users", get: "lms_get_user" },
  { category: "lms", model: LMS_COURSE, nouns: ["course", "training", "program", "learning_path", "curriculum", "class", "bundle", "catalog_item", "learning_item"], list: "lms_list_courses", get: "lms_get_course" },
  { category: "lms", model: LMS_CONTENT, nouns: ["content", "lesson", "chapter", "module", "learning_object", "asset", "material", "learning_content", "content_item"], list: "lms_list_content", get: "lms_get_content" },
  { category: "lms", model: LMS_ASSIGNMENT, nouns: ["assignment", "enrollment", "enrolment", "registration", "course_assignment", "learning_assignment"], list: "lms_list_assignments", get: "lms_get_assignment" },
  { category: "lms", model: LMS_COMPLETION, nouns: ["completion", "course_completion", "result", "transcript", "achievement"], list: "lms_list_completions", get: "lms_get_completion" },
  { category: "lms", model: LMS_CATEGORY, nouns: ["category", "topic", "subject", "catalog", "catalogue", "course_category", "collection"], list: "lms_list_categories", get: "lms_get_category" },
  { category: "lms", model: SKILL, nouns: ["skill", "competency", "competence", "course_skill"], list: "lms_list_skills", get: "lms_get_skill" }
]

/** Every category's resources (`matchOperation` prefers one read under its parent to a top-level one). */
export const UNIFIED_CATALOGUE: Readonly<Record<Category, ReadonlyArray<UnifiedResource>>> = { hris: HRIS, ats: ATS, lms: LMS }
