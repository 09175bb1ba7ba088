import { DATA_START, DAY, SANDBOX_NOW, ymd } from "../clock.js"
import { FileStore, MEDIA, makePdf, makePng, makeText } from "../files.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"

/** The HRIS's in-memory records (BambooHR model). Field values are strings or null, as BambooHR returns them. */

export type Fields = Record<string, string | null>

export interface TableRow {
  id: number
  employeeId: number
  fields: Fields
}

export interface EmployeeFile {
  id: number
  categoryId: number
  name: string
  originalFileName: string
  size: number
  dateCreated: number
  createdBy: string
  shareWithEmployee: "yes" | "no"
}

export interface EmployeeRec {
  id: number
  fields: Fields
  createdAt: number
  lastChanged: number
  files: Array<EmployeeFile>
}

/** A time off type (BambooHR's List Time Off Types): what the leave is for, counted in hours or days. */
export interface TimeOffType {
  id: number
  name: string
  units: "hours" | "days"
  color: string
  icon: string
}

/** A time off policy (List Time Off Policies) of a type; every employee is on every policy here. */
export interface TimeOffPolicy {
  id: number
  timeOffTypeId: number
  name: string
  type: "accruing" | "discretionary" | "manual"
  /** What an accruing or manual policy grants a year, in its type's units (none for discretionary). */
  perYear: number
}

/** BambooHR's request statuses (List Time Off Requests' status filter names them). */
export type TimeOffStatus = "approved" | "denied" | "superceded" | "requested" | "canceled"

export interface TimeOffRequestRec {
  id: number
  employeeId: number
  typeId: number
  /** YYYY-MM-DD, both inclusive. */
  start: string
  end: string
  /** The amount per day (YYYY-MM-DD → hours or days), in the type's units. */
  dates: Record<string, number>
  amount: number
  status: TimeOffStatus
  created: number
  lastChanged: number
  notes: { employee?: string; manager?: string }
}

export interface HrisState {
  readonly employees: Map<number, EmployeeRec>
  /** table name → rows (all employees), in id order. */
  readonly tables: Map<string, Array<TableRow>>
  readonly categories: Array<{ id: number; name: string }>
  readonly timeOffTypes: Array<TimeOffType>
  readonly timeOffPolicies: Array<TimeOffPolicy>
  /** In id order. */
  readonly timeOffRequests: Array<TimeOffRequestRec>
  readonly next: { employee: number; row: number; file: number; timeOffRequest: number }
}

export const EMPLOYEE_ID_BASE = 101
export const HRIS_FILE_BASE = 50001
export const TIME_OFF_REQUEST_BASE = 1301

/** The company's time off types and policies: fixed, like the file categories. */
const TIME_OFF_TYPES: ReadonlyArray<TimeOffType> = [
  { id: 64, name: "Vacation", units: "days", color: "56afdd", icon: "airplane" },
  { id: 65, name: "Sick", units: "hours", color: "e06666", icon: "medical-briefcase" },
  { id: 66, name: "Bereavement", units: "days", color: "999999", icon: "heart" },
  { id: 67, name: "Jury Duty", units: "days", color: "6aa84f", icon: "gavel" }
]
const TIME_OFF_POLICIES: ReadonlyArray<TimeOffPolicy> = [
  { id: 1, timeOffTypeId: 64, name: "Vacation Full-Time", type: "accruing", perYear: 20 },
  { id: 2, timeOffTypeId: 65, name: "Sick Leave", type: "manual", perYear: 80 },
  { id: 3, timeOffTypeId: 66, name: "Bereavement", type: "discretionary", perYear: 0 },
  { id: 4, timeOffTypeId: 67, name: "Jury Duty", type: "discretionary", perYear: 0 }
]

/** The weekdays from `start` to `end` (YYYY-MM-DD, inclusive), each `perDay`: what a request counts by default. */
export const weekdayAmounts = (start: string, end: string, perDay: number): Record<string, number> => {
  const dates: Record<string, number> = {}
  for (let at = Date.parse(start); at <= Date.parse(end); at += DAY) {
    const weekday = new Date(at).getUTCDay()
    if (weekday !== 0 && weekday !== 6) dates[ymd(at)] = perDay
  }
  return dates
}

/** One day off counts 1 in days, 8 in hours. */
export const perDayIn = (units: TimeOffType["units"]): number => (units === "hours" ? 8 : 1)
export const TABLES = ["jobInfo", "employmentStatus", "compensation"] as const

/** Fields that come from the current jobInfo row. */
export const JOB_INFO_FIELDS = ["jobTitle", "department", "division", "location"] as const

/** The fields an employee record stores (besides those derived from tables). */
export const EMPLOYEE_FIELDS = [
  "employeeNumber", "firstName", "lastName", "preferredName", "middleName", "gender", "dateOfBirth", "maritalStatus",
  "workEmail", "homeEmail", "workPhone", "workPhoneExtension", "mobilePhone", "homePhone", "address1", "address2",
  "city", "state", "zipcode", "country", "hireDate", "originalHireDate", "terminationDate", "status",
  "employmentHistoryStatus", "payRate", "payType", "payPer", "exempt", "linkedIn", "pronouns", "photoUploaded"
] as const

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "")

export const generateHris = (seed: number, count: number, files: FileStore): HrisState => {
  const state: HrisState = {
    employees: new Map(),
    tables: new Map(TABLES.map((t) => [t, []])),
    categories: [
      { id: 1, name: "Resumes and Applications" },
      { id: 2, name: "Signed Documents" },
      { id: 3, name: "Workflow Attachments" }
    ],
    timeOffTypes: TIME_OFF_TYPES.map((type) => ({ ...type })),
    timeOffPolicies: TIME_OFF_POLICIES.map((policy) => ({ ...policy })),
    timeOffRequests: [],
    next: { employee: EMPLOYEE_ID_BASE, row: 1, file: HRIS_FILE_BASE, timeOffRequest: TIME_OFF_REQUEST_BASE }
  }
  const n = Math.max(1, count)
  for (let i = 0; i < n; i++) {
    const rng = rngFor(seed, "hris-employee", i)
    const id = state.next.employee++
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    const hire = DATA_START - rng.int(30, 2500) * DAY
    const terminated = i > 0 && rng.chance(0.1)
    const termination = terminated ? SANDBOX_NOW - rng.int(5, 200) * DAY : null
    const city = rng.pick(W.CITIES)
    const created = hire - rng.int(7, 30) * DAY
    const salary = rng.int(55, 240) * 1000
    const employee: EmployeeRec = {
      id,
      createdAt: created,
      lastChanged: created,
      files: [],
      fields: {
        employeeNumber: String(1000 + i),
        firstName: first,
        lastName: last,
        preferredName: rng.chance(0.2) ? first.slice(0, 3) : null,
        middleName: null,
        gender: rng.pick(["Female", "Male", "Nonbinary", null]),
        dateOfBirth: ymd(hire - rng.int(22 * 365, 55 * 365) * DAY),
        maritalStatus: rng.pick(["Single", "Married", null]),
        workEmail: `${slug(first)}.${slug(last)}${i + 1}@sandbox-company.example`,
        homeEmail: `${slug(first)}${rng.int(10, 99)}@mail.example`,
        workPhone: `+1 555 ${rng.digits(3)} ${rng.digits(4)}`,
        workPhoneExtension: rng.chance(0.3) ? rng.digits(3) : null,
        mobilePhone: `+1 555 ${rng.digits(3)} ${rng.digits(4)}`,
        homePhone: null,
        address1: `${rng.int(1, 999)} ${rng.pick(W.STREETS)}`,
        address2: null,
        city: city[0],
        state: city[1] || null,
        zipcode: city[3],
        country: city[2],
        hireDate: ymd(hire),
        originalHireDate: ymd(hire),
        terminationDate: termination === null ? null : ymd(termination),
        status: terminated ? "Inactive" : "Active",
        employmentHistoryStatus: terminated ? "Terminated" : rng.weighted([["Full-Time", 80], ["Part-Time", 12], ["Contractor", 8]] as const),
        payRate: `${salary}.00 USD`,
        payType: "Salary",
        payPer: "Year",
        exempt: "Exempt",
        linkedIn: rng.chance(0.5) ? `https://linkedin.example.com/in/${slug(first)}-${slug(last)}-${id}` : null,
        pronouns: null,
        photoUploaded: "false"
      }
    }
    state.employees.set(id, employee)

    // jobInfo history: 1-3 rows from the hire date on; the latest row is current.
    const rows = rng.int(1, 3)
    let date = hire
    let title: string = rng.pick(W.TITLES)
    const department = rng.pick(W.DEPARTMENTS)
    const supervisorId = i === 0 ? null : EMPLOYEE_ID_BASE + rng.int(0, Math.max(0, Math.min(i - 1, 7)))
    for (let r = 0; r < rows; r++) {
      if (r > 0) {
        date += rng.int(120, 500) * DAY
        if (date > SANDBOX_NOW - 30 * DAY) break
        title = rng.chance(0.6) ? `Senior ${title.replace(/^Senior /, "")}` : rng.pick(W.TITLES)
      }
      addRow(state, "jobInfo", id, {
        date: ymd(date),
        location: rng.pick(W.OFFICES),
        department,
        division: rng.pick(W.DIVISIONS),
        jobTitle: i === 0 ? "Chief Executive Officer" : title,
        reportsTo: supervisorId === null ? null : String(supervisorId)
      })
      employee.lastChanged = Math.max(employee.lastChanged, date)
    }
    addRow(state, "employmentStatus", id, {
      date: ymd(hire),
      employmentStatus: terminated ? "Full-Time" : (employee.fields["employmentHistoryStatus"] as string),
      comment: null,
      terminationReasonId: null,
      terminationTypeId: null,
      terminationRehireId: null,
      terminationRegrettableId: null
    })
    if (termination !== null) {
      addRow(state, "employmentStatus", id, {
        date: ymd(termination),
        employmentStatus: "Terminated",
        comment: "Voluntary resignation",
        terminationReasonId: "12",
        terminationTypeId: "1",
        terminationRehireId: "1",
        terminationRegrettableId: "2"
      })
      employee.lastChanged = Math.max(employee.lastChanged, termination)
    }
    addRow(state, "compensation", id, {
      startDate: ymd(hire),
      rate: JSON.stringify({ currency: "USD", value: `${salary}.00` }),
      type: "Salary",
      exempt: "Exempt",
      reason: "New Hire",
      comment: null,
      paidPer: "Year",
      paySchedule: "Twice a month"
    })

    // Files: an offer letter for everyone, sometimes a signed handbook receipt, a badge photo or notes.
    const name = `${first} ${last}`
    const docs: Array<[number, "pdf" | "png" | "txt", string]> = [[2, "pdf", `Offer Letter - ${name}.pdf`]]
    if (rng.chance(0.5)) docs.push([2, "pdf", "Handbook Acknowledgement.pdf"])
    if (rng.chance(0.4)) docs.push([3, "png", `Badge Photo - ${name}.png`])
    if (rng.chance(0.3)) docs.push([1, "txt", "Interview Notes.txt"])
    for (const [categoryId, kind, fileName] of docs) {
      const fileId = state.next.file++
      const build = (): Buffer =>
        kind === "pdf"
          ? makePdf(fileName.replace(/\.pdf$/, ""), [`Employee: ${name} (#${id})`, `Hire date: ${ymd(hire)}`, `Sandbox file ${fileId}`])
          : kind === "png"
            ? makePng(rngFor(seed, "hris-file", fileId))
            : makeText([`Notes for ${name}`, `Strong collaboration skills.`, `Sandbox file ${fileId}`])
      files.add({ id: fileId, filename: fileName, contentType: MEDIA[kind], build })
      employee.files.push({
        id: fileId,
        categoryId,
        name: fileName.replace(/\.[a-z]+$/, ""),
        originalFileName: fileName,
        size: build().length,
        dateCreated: hire + rng.int(0, 20) * DAY,
        createdBy: "Sandbox Admin",
        shareWithEmployee: rng.chance(0.7) ? "yes" : "no"
      })
    }
  }
  generateTimeOff(seed, state)
  return state
}

/**
 * Up to three time off requests per employee in the data's year, from their own random stream
 * (the employees and files above draw the same numbers as before time off existed).
 */
const generateTimeOff = (seed: number, state: HrisState): void => {
  let index = 0
  for (const employee of state.employees.values()) {
    const rng = rngFor(seed, "hris-time-off", index++)
    const count = rng.int(0, 3)
    for (let r = 0; r < count; r++) {
      const type = rng.weighted([[64, 60], [65, 30], [66, 5], [67, 5]] as const)
      const units = state.timeOffTypes.find((candidate) => candidate.id === type)?.units ?? "days"
      const startAt = DATA_START + rng.int(10, 340) * DAY
      const start = ymd(startAt)
      const end = ymd(startAt + rng.int(0, 4) * DAY)
      const dates = weekdayAmounts(start, end, perDayIn(units))
      const created = startAt - rng.int(5, 40) * DAY
      const status = rng.weighted([["approved", 60], ["requested", 20], ["denied", 10], ["canceled", 10]] as const)
      state.timeOffRequests.push({
        id: state.next.timeOffRequest++,
        employeeId: employee.id,
        typeId: type,
        start,
        end,
        dates,
        amount: Object.values(dates).reduce((sum, amount) => sum + amount, 0),
        status,
        created,
        lastChanged: status === "requested" ? created : created + rng.int(0, 4) * DAY,
        notes: rng.chance(0.5) ? { employee: rng.pick(["Family trip", "Doctor appointment", "Moving house", "Long weekend"]) } : {}
      })
    }
  }
}

export const addRow = (state: HrisState, table: string, employeeId: number, fields: Fields): TableRow => {
  const row = { id: state.next.row++, employeeId, fields }
  const rows = state.tables.get(table)
  if (rows === undefined) state.tables.set(table, [row])
  else rows.push(row)
  return row
}

/** The row in effect: the latest date on or before `now` (rows with later dates are future-dated). */
export const currentRow = (rows: ReadonlyArray<TableRow>, dateField: string, now: number): TableRow | undefined => {
  const today = ymd(now)
  let best: TableRow | undefined
  for (const row of rows) {
    const d = row.fields[dateField] ?? ""
    if (d > today) continue
    if (best === undefined || d >= (best.fields[dateField] ?? "")) best = row
  }
  return best
}
