import { currentRow, type EmployeeRec } from "./data.js"
import { fullName, type HrisContext } from "./hrisContext.js"

export type FieldValue = string | number | boolean | null

/** BambooHR's timestamps: ISO 8601 to the second, with a `+00:00` offset instead of `Z`. */
export const bambooTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00")

/** Most fields go out as strings or null, whatever their stored type. */
export const asString = (value: FieldValue | undefined): string | null => (value === null || value === undefined ? null : String(value))

const MS_PER_YEAR = 365.25 * 24 * 3600 * 1000

/**
 * Every readable field of an employee, derived fields included. The job fields and supervisor come
 * from the jobInfo row in force now (`onlyCurrent`) or else from the latest-dated one.
 */
export const employeeFields = (context: HrisContext, employee: EmployeeRec, onlyCurrent: boolean, origin: string): Record<string, FieldValue> => {
  const fields = employee.fields
  const jobRows = context.rows("jobInfo", employee.id)
  const job = onlyCurrent ? currentRow(jobRows, "date", context.now()) : jobRows.slice().sort((left, right) => ((left.fields["date"] ?? "") < (right.fields["date"] ?? "") ? -1 : 1)).pop()
  const statusRow = currentRow(context.rows("employmentStatus", employee.id), "date", context.now())
  const supervisorId = job?.fields["reportsTo"] ?? null
  const supervisor = supervisorId === null ? undefined : context.state.employees.get(Number(supervisorId))
  const first = fields["firstName"] ?? ""
  const last = fields["lastName"] ?? ""
  const middle = fields["middleName"] ? ` ${fields["middleName"]}` : ""
  const preferred = fields["preferredName"]
  const dateOfBirth = fields["dateOfBirth"]
  const age = dateOfBirth === null || dateOfBirth === undefined ? null : String(Math.floor((context.now() - Date.parse(dateOfBirth)) / MS_PER_YEAR))
  return {
    ...fields,
    id: String(employee.id),
    displayName: `${preferred ?? first} ${last}`.trim(),
    fullName1: `${first} ${last}`.trim(),
    fullName2: `${last}, ${first}`,
    fullName3: `${last}, ${first}${middle}`,
    fullName4: `${last}, ${first}${middle}`,
    fullName5: `${first}${middle} ${last}`,
    age,
    jobTitle: job?.fields["jobTitle"] ?? null,
    department: job?.fields["department"] ?? null,
    division: job?.fields["division"] ?? null,
    location: job?.fields["location"] ?? null,
    supervisor: supervisor === undefined ? null : fullName(supervisor),
    supervisorEId: supervisor === undefined ? null : String(supervisor.id),
    supervisorId: supervisor === undefined ? null : (supervisor.fields["employeeNumber"] ?? null),
    supervisorEmail: supervisor === undefined ? null : (supervisor.fields["workEmail"] ?? null),
    employmentHistoryStatus: statusRow?.fields["employmentStatus"] ?? fields["employmentHistoryStatus"] ?? null,
    lastChanged: bambooTime(employee.lastChanged),
    // the names BambooHR's Get Employee answer (GetEmployeeResponse) gives these
    birthDate: fields["dateOfBirth"] ?? null,
    marital: fields["maritalStatus"] ?? null,
    jobTitleName: job?.fields["jobTitle"] ?? null,
    reportsToId: supervisor === undefined ? null : String(supervisor.id),
    reportsToName: supervisor === undefined ? null : fullName(supervisor),
    photoUrl: `${context.apiBase(origin)}/employees/${employee.id}/photo/small`,
    canUploadPhoto: 1,
    photoUploaded: fields["photoUploaded"] === "true"
  }
}
