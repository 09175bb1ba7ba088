import type { Route } from "../router.js"
import { addRow, type Fields, type HrisState, type TableRow } from "./data.js"
import { bambooError } from "./errors.js"
import { cleanValue, fieldsBody } from "./fieldsBody.js"
import { fullName, type HrisContext } from "./hrisContext.js"
import { fieldXml, sendJsonOrXml } from "./jsonOrXml.js"

/** An employee's dated history tables (jobInfo, employmentStatus, compensation): list, add a row, change a row. */

/** The fields a row of each table may be written with. */
const TABLE_FIELDS: Record<string, ReadonlyArray<string>> = {
  jobInfo: ["date", "location", "department", "division", "jobTitle", "reportsTo"],
  employmentStatus: ["date", "employmentStatus", "comment", "terminationReasonId", "terminationTypeId", "terminationRehireId", "terminationRegrettableId"],
  compensation: ["startDate", "rate", "type", "exempt", "reason", "comment", "paidPer", "paySchedule"]
}

/** The field that dates a row of each table; a new row must have it. */
const TABLE_DATE_FIELD: Record<string, string> = { jobInfo: "date", employmentStatus: "date", compensation: "startDate" }

/** A row as BambooHR shows it: ids as strings, the rate as its `{currency, value}` object, reportsTo as a name. */
const rowView = (state: HrisState, table: string, row: TableRow): Record<string, unknown> => {
  const view: Record<string, unknown> = { id: String(row.id), employeeId: String(row.employeeId) }
  for (const [field, value] of Object.entries(row.fields)) {
    if (table === "compensation" && field === "rate" && value !== null) view[field] = JSON.parse(value) as unknown
    else if (table === "jobInfo" && field === "reportsTo") view[field] = reportsToName(state, value)
    else view[field] = value
  }
  return view
}

const reportsToName = (state: HrisState, id: string | null): string | null => {
  if (id === null) return null
  const employee = state.employees.get(Number(id))
  return employee === undefined ? null : fullName(employee)
}

/** reportsTo is written as an employee id or a full name; it is stored as the id. */
const resolveReportsTo = (state: HrisState, value: string | null): string | null => {
  if (value === null) return null
  if (/^\d+$/.test(value) && state.employees.has(Number(value))) return value
  const byName = [...state.employees.values()].find((employee) => fullName(employee).toLowerCase() === value.trim().toLowerCase())
  if (byName === undefined) throw bambooError(400, `reportsTo ${value} is not an employee id or name`)
  return String(byName.id)
}

/** The written fields of a row, checked and cleaned; a new row (`requireDate`) must be dated. */
const tableRowFields = (state: HrisState, table: string, body: Record<string, unknown>, requireDate: boolean): Fields => {
  const allowed = TABLE_FIELDS[table]
  if (allowed === undefined) throw bambooError(404, `Table ${table} not found`)
  const fields: Fields = {}
  for (const [field, value] of Object.entries(body)) {
    if (!allowed.includes(field)) throw bambooError(400, `Unknown field ${field} for table ${table}`)
    fields[field] = cleanValue(field, value)
  }
  const dateField = TABLE_DATE_FIELD[table] as string
  if (requireDate && (fields[dateField] === undefined || fields[dateField] === null)) throw bambooError(400, `${dateField} is required`)
  if (fields["reportsTo"] !== undefined) fields["reportsTo"] = resolveReportsTo(state, fields["reportsTo"])
  // A rate written as "50000 EUR" (or just "50000", in USD) is stored as the JSON BambooHR returns.
  if (table === "compensation" && fields["rate"] !== undefined && fields["rate"] !== null && !fields["rate"].startsWith("{")) {
    const [value = "", currency = "USD"] = fields["rate"].split(/\s+/)
    fields["rate"] = JSON.stringify({ currency, value })
  }
  return fields
}

export const tableRoutes = (context: HrisContext): ReadonlyArray<Route> => [
  // `/employees/all/tables/{table}` lists every employee's rows.
  context.route("GET", "/employees/:id/tables/:table", (ctx, params) => {
    const table = params["table"] as string
    const rows = params["id"] === "all" ? context.rows(table, "all") : context.rows(table, context.employee(params["id"]).id)
    const state = context.state
    const views = rows.map((row) => rowView(state, table, row))
    sendJsonOrXml(ctx, views, () =>
      `<table>${views
        .map((view) => `<row id="${view["id"] as string}" employeeId="${view["employeeId"] as string}">${Object.entries(view).filter(([field]) => field !== "id" && field !== "employeeId").map(([field, value]) => fieldXml(field, value)).join("")}</row>`)
        .join("")}</table>`
    )
  }),
  context.route("POST", "/employees/:id/tables/:table", (ctx, params) => {
    const employee = context.employee(params["id"])
    const table = params["table"] as string
    const state = context.state
    const fields = tableRowFields(state, table, fieldsBody(ctx), true)
    const template = Object.fromEntries((TABLE_FIELDS[table] as ReadonlyArray<string>).map((field) => [field, null]))
    const row = addRow(state, table, employee.id, { ...template, ...fields })
    employee.lastChanged = context.tick()
    ctx.res.writeHead(200, { location: `${context.apiBase(ctx.origin)}/employees/${employee.id}/tables/${table}/${row.id}`, "content-length": "0" })
    ctx.res.end()
  }),
  context.route("POST", "/employees/:id/tables/:table/:rowId", (ctx, params) => {
    const employee = context.employee(params["id"])
    const table = params["table"] as string
    const row = context.rows(table, employee.id).find((candidate) => String(candidate.id) === params["rowId"])
    if (row === undefined) throw bambooError(404, `Row ${params["rowId"] ?? ""} not found`)
    Object.assign(row.fields, tableRowFields(context.state, table, fieldsBody(ctx), false))
    employee.lastChanged = context.tick()
    ctx.res.writeHead(200, { "content-length": "0" })
    ctx.res.end()
  })
]
