import type { Route } from "../router.js"
import { EMPLOYEE_FIELDS, JOB_INFO_FIELDS } from "./data.js"
import { DATE_FIELDS } from "./fieldsBody.js"
import type { HrisContext } from "./hrisContext.js"
import { sendJsonOrXml, xmlEscape } from "./jsonOrXml.js"

/** The account's metadata: the fields it knows, the option lists of the job fields, and the company's profile. */

/** "jobTitle" → "Job Title". */
const label = (alias: string): string => alias.replace(/([A-Z])/g, " $1").replace(/^./, (first) => first.toUpperCase())

export const metadataRoutes = (context: HrisContext): ReadonlyArray<Route> => [
  // Get Company Information: names derived from the company domain, a fixed address and phone
  context.route("GET", "/company_information", (ctx) => {
    const name = context.companyDomain.charAt(0).toUpperCase() + context.companyDomain.slice(1)
    const information = {
      legalName: `${name} Company, Inc.`,
      displayName: name,
      address: { line1: "1 Sandbox Way", line2: "Suite 100", city: "Lindon", state: "UT", zip: "84042" },
      phone: "801-555-0100"
    }
    sendJsonOrXml(ctx, information, () =>
      `<company><legalName>${xmlEscape(information.legalName)}</legalName><displayName>${xmlEscape(information.displayName)}</displayName></company>`)
  }),
  context.route("GET", "/meta/fields", (ctx) => {
    const names = [...EMPLOYEE_FIELDS, ...JOB_INFO_FIELDS, "displayName", "supervisor", "supervisorEId", "employmentHistoryStatus", "lastChanged"]
    const fields = names.map((alias, index) => ({
      id: index + 1,
      name: label(alias),
      type: DATE_FIELDS.has(alias) ? "date" : (JOB_INFO_FIELDS as ReadonlyArray<string>).includes(alias) ? "list" : "text",
      alias
    }))
    sendJsonOrXml(ctx, fields, () => `<fields>${fields.map((field) => `<field id="${field.id}" type="${field.type}" alias="${field.alias}">${xmlEscape(field.name)}</field>`).join("")}</fields>`)
  }),
  context.route("GET", "/meta/lists", (ctx) => {
    // A list's options are the values its field has in any jobInfo row, sorted.
    const values = (field: string): Array<string> =>
      [...new Set(context.rows("jobInfo", "all").map((row) => row.fields[field]).filter((value): value is string => value !== null && value !== undefined))].sort()
    const lists = JOB_INFO_FIELDS.map((alias, index) => ({
      fieldId: index + 1,
      alias,
      manageable: "yes",
      multiple: "no",
      name: label(alias),
      options: values(alias).map((name, position) => ({ id: (index + 1) * 100 + position, archived: "no", createdDate: null, archivedDate: null, name }))
    }))
    sendJsonOrXml(ctx, lists, () =>
      `<lists>${lists
        .map((list) => `<list fieldId="${list.fieldId}" alias="${list.alias}"><name>${xmlEscape(list.name)}</name><options>${list.options.map((option) => `<option id="${option.id}" archived="no">${xmlEscape(option.name)}</option>`).join("")}</options></list>`)
        .join("")}</lists>`
    )
  })
]
