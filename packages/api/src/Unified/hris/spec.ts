import { Schema } from "effect"
import { fieldsParam, RawParam } from "../common/queryParams.js"
import {
  codeEnumValue,
  CustomField,
  DateTimeInput,
  EnumValue,
  optionalNullable,
  Passthrough,
  SourceValueOnly,
  UnifiedCustomFields
} from "../common/recordFields.js"
import { GetResponse, ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import {
  HrisContractTypeEnum,
  HrisCountryCodeEnum,
  HrisEmploymentGrade,
  HrisEmploymentScheduleTypeEnum,
  HrisEmploymentStatusEnum,
  HrisEmploymentTypeEnum,
  HrisEthnicityEnum,
  HrisGenderEnum,
  HrisMaritalStatusEnum,
  HrisNationalIdentityNumber,
  HrisPayFrequencyEnum,
  HrisPayPeriodEnum,
  HrisPreferredLanguageEnum,
  HrisTypeEnum,
  HrisWorkTime
} from "./records.generated.js"

/*
 * What the spec defines of the unified HRIS itself: the employee document category record and
 * the employee update body. The generated modules use these where the reference has its own.
 */

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

export const HrisEmployeeDocumentCategory = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  active: optionalNullable(Schema.Boolean),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "HrisEmployeeDocumentCategory" })
export type HrisEmployeeDocumentCategory = typeof HrisEmployeeDocumentCategory.Type

export const HRIS_EMPLOYEE_DOCUMENT_CATEGORY_FIELDS = Object.keys(HrisEmployeeDocumentCategory.fields) as ReadonlyArray<
  keyof typeof HrisEmployeeDocumentCategory.fields
>

export const HrisEmployeeDocumentCategoryResult = GetResponse(
  HrisEmployeeDocumentCategory,
  "HrisEmployeeDocumentCategoryResult"
)

export const HrisEmployeeDocumentCategoriesList = ListResponse(
  HrisEmployeeDocumentCategory,
  "HrisEmployeeDocumentCategoriesList"
)

export const HrisGetEmployeeDocumentCategoryParams = unifiedQuery({
  params: {
    raw: Schema.optional(RawParam),
    fields: Schema.optional(fieldsParam(HRIS_EMPLOYEE_DOCUMENT_CATEGORY_FIELDS))
  }
})
export type HrisGetEmployeeDocumentCategoryParams = typeof HrisGetEmployeeDocumentCategoryParams.Type

// ---------------------------------------------------------------------------
// Employee update body (spec table: every field optional and nullable)
// ---------------------------------------------------------------------------

// The enumerations are the reference's (records.generated.ts), under its names; only the
// sub-division code, a bare string in the reference, is documented here.
export const SubDivision = codeEnumValue(
  "HrisSubDivision",
  "ISO 3166-2 sub-division code, or unmapped_value",
  "US-CA"
)

export const EmploymentTypeRef = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  label: optionalNullable(Schema.String),
  type: optionalNullable(HrisTypeEnum)
}).annotations({ identifier: "HrisEmploymentTypeRef" })

export const EmploymentContractTypeRef = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  label: optionalNullable(Schema.String),
  contract_type: optionalNullable(HrisContractTypeEnum)
}).annotations({ identifier: "HrisEmploymentContractTypeRef" })

export const EmployeeEmploymentInput = Schema.Struct({
  unified_custom_fields: optionalNullable(UnifiedCustomFields),
  job_title: optionalNullable(Schema.String),
  pay_rate: optionalNullable(Schema.String),
  pay_period: optionalNullable(HrisPayPeriodEnum),
  pay_frequency: optionalNullable(HrisPayFrequencyEnum),
  pay_currency: optionalNullable(Schema.String),
  end_date: optionalNullable(DateTimeInput),
  grade: optionalNullable(HrisEmploymentGrade),
  employment_type: optionalNullable(HrisEmploymentTypeEnum),
  employment_contract_type: optionalNullable(HrisEmploymentScheduleTypeEnum),
  type: optionalNullable(EmploymentTypeRef),
  contract_type: optionalNullable(EmploymentContractTypeRef),
  work_time: optionalNullable(HrisWorkTime),
  payroll_code: optionalNullable(Schema.String),
  passthrough: optionalNullable(Passthrough),
  effective_date: optionalNullable(DateTimeInput).annotations({ description: "Deprecated" })
}).annotations({ identifier: "HrisEmployeeEmploymentInput" })

export const EmployeeBenefit = Schema.Struct({
  id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  benefit_type: optionalNullable(SourceValueOnly),
  provider: optionalNullable(Schema.String),
  description: optionalNullable(Schema.String),
  created_at: optionalNullable(DateTimeInput),
  updated_at: optionalNullable(DateTimeInput)
}).annotations({ identifier: "HrisEmployeeBenefit" })

export const EmployeeLocationInput = Schema.Struct({
  id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  phone_number: optionalNullable(Schema.String),
  street_1: optionalNullable(Schema.String),
  street_2: optionalNullable(Schema.String),
  city: optionalNullable(Schema.String),
  zip_code: optionalNullable(Schema.String),
  country: optionalNullable(HrisCountryCodeEnum),
  passthrough: optionalNullable(Passthrough),
  state: optionalNullable(SubDivision)
}).annotations({ identifier: "HrisEmployeeLocationInput" })

export const HrisUpdateEmployeeRequest = Schema.Struct({
  title: optionalNullable(Schema.String).annotations({ description: "Name prefix (e.g. Mr, Ms, Dr)" }),
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  display_name: optionalNullable(Schema.String),
  avatar_url: optionalNullable(Schema.String),
  personal_email: optionalNullable(Schema.String),
  personal_phone_number: optionalNullable(Schema.String),
  work_email: optionalNullable(Schema.String),
  work_phone_number: optionalNullable(Schema.String),
  job_id: optionalNullable(Schema.String).annotations({ description: "Deprecated" }),
  job_title: optionalNullable(Schema.String).annotations({
    description:
      "When sourced from the employee's current employment and that employment belongs only to this employee, the active employment's job_title is written too"
  }),
  department_id: optionalNullable(Schema.String),
  team_id: optionalNullable(Schema.String),
  department: optionalNullable(Schema.String),
  manager_id: optionalNullable(Schema.String),
  company_name: optionalNullable(Schema.String).annotations({ description: "Deprecated: use company_id" }),
  company_id: optionalNullable(Schema.String),
  employee_number: optionalNullable(Schema.String),
  date_of_birth: optionalNullable(DateTimeInput),
  birthday: optionalNullable(DateTimeInput).annotations({ description: "Next upcoming birthday" }),
  hire_date: optionalNullable(DateTimeInput),
  start_date: optionalNullable(DateTimeInput),
  termination_date: optionalNullable(DateTimeInput),
  gender: optionalNullable(HrisGenderEnum),
  preferred_language: optionalNullable(HrisPreferredLanguageEnum),
  ethnicity: optionalNullable(HrisEthnicityEnum),
  marital_status: optionalNullable(HrisMaritalStatusEnum),
  avatar: optionalNullable(EnumValue),
  employment_type: optionalNullable(HrisEmploymentTypeEnum).annotations({ description: "Deprecated" }),
  employment_contract_type: optionalNullable(HrisEmploymentScheduleTypeEnum).annotations({
    description: "Deprecated: work schedule type"
  }),
  employment_status: optionalNullable(HrisEmploymentStatusEnum),
  citizenships: optionalNullable(Schema.Array(HrisCountryCodeEnum)),
  employment: optionalNullable(EmployeeEmploymentInput),
  custom_fields: optionalNullable(Schema.Array(CustomField)),
  benefits: optionalNullable(Schema.Array(EmployeeBenefit)),
  national_identity_number: optionalNullable(HrisNationalIdentityNumber).annotations({
    description: "Deprecated: use national_identity_numbers"
  }),
  national_identity_numbers: optionalNullable(Schema.Array(HrisNationalIdentityNumber)),
  home_location: optionalNullable(EmployeeLocationInput),
  work_location: optionalNullable(EmployeeLocationInput),
  passthrough: optionalNullable(Passthrough)
}).annotations({ identifier: "HrisUpdateEmployeeRequest" })
export type HrisUpdateEmployeeRequest = typeof HrisUpdateEmployeeRequest.Type
