import type { Route } from "../router.js"
import { asString, employeeFields } from "./employeeFields.js"
import { fieldsBody } from "./fieldsBody.js"
import type { HrisContext } from "./hrisContext.js"
import { fieldXml, sendJsonOrXml, xmlEscape } from "./jsonOrXml.js"

/** The fields of BambooHR's employee directory: id, type, label. */
const DIRECTORY_FIELDS: ReadonlyArray<readonly [string, string, string]> = [
  ["displayName", "text", "Display name"],
  ["firstName", "text", "First name"],
  ["lastName", "text", "Last name"],
  ["preferredName", "text", "Preferred name"],
  ["jobTitle", "list", "Job title"],
  ["workPhone", "text", "Work Phone"],
  ["mobilePhone", "text", "Mobile Phone"],
  ["workEmail", "email", "Work Email"],
  ["department", "list", "Department"],
  ["location", "list", "Location"],
  ["division", "list", "Division"],
  ["linkedIn", "text", "LinkedIn URL"],
  ["pronouns", "pronoun", "Pronouns"],
  ["workPhoneExtension", "text", "Work Ext."],
  ["supervisor", "employee", "Supervisor"],
  ["photoUploaded", "bool", "Employee photo"],
  ["photoUrl", "url", "Photo URL"],
  ["canUploadPhoto", "bool", "Can upload photo"]
]

/**
 * The directory of active employees, and an ad-hoc custom report (POST /reports/custom): every
 * employee, with `id` and the fields the body's `fields` names (null where the employee has none),
 * as BambooHR answers `format=json`.
 */
export const directoryRoutes = (context: HrisContext): ReadonlyArray<Route> => [
  context.route("POST", "/reports/custom", (ctx) => {
    const body = fieldsBody(ctx)
    const requested = Array.isArray(body["fields"]) ? body["fields"].map(String) : []
    const employees = [...context.state.employees.values()].map((employee) => {
      const all = employeeFields(context, employee, true, ctx.origin)
      const row: Record<string, unknown> = { id: String(employee.id) }
      for (const name of requested) if (name !== "id") row[name] = asString(all[name]) ?? null
      return row
    })
    const title = typeof body["title"] === "string" ? body["title"] : "Report"
    sendJsonOrXml(ctx, { title, fields: requested.map((id) => ({ id, type: "text", name: id })), employees }, () =>
      `<report><title>${xmlEscape(title)}</title><employees>${employees
        .map((row) => `<employee id="${row["id"] as string}">${requested.filter((name) => name !== "id").map((name) => fieldXml(name, row[name])).join("")}</employee>`)
        .join("")}</employees></report>`
    )
  }),
  context.route("GET", "/employees/directory", (ctx) => {
    const employees = [...context.state.employees.values()].filter((employee) => employee.fields["status"] === "Active")
    const rows = employees.map((employee) => {
      const all = employeeFields(context, employee, true, ctx.origin)
      const row: Record<string, unknown> = { id: String(employee.id) }
      // The two photo flags keep their boolean / number types; everything else is a string or null.
      for (const [name] of DIRECTORY_FIELDS) row[name] = name === "photoUploaded" ? all["photoUploaded"] : name === "canUploadPhoto" ? 1 : asString(all[name])
      return row
    })
    const fields = DIRECTORY_FIELDS.map(([id, type, name]) => ({ id, type, name }))
    sendJsonOrXml(ctx, { fields, employees: rows }, () =>
      `<directory><fieldset>${fields.map((field) => `<field id="${field.id}">${xmlEscape(field.name)}</field>`).join("")}</fieldset><employees>${rows
        .map((row) => `<employee id="${row["id"] as string}">${DIRECTORY_FIELDS.map(([name]) => fieldXml(name, row[name])).join("")}</employee>`)
        .join("")}</employees></directory>`
    )
  })
]
