import type { Clock } from "../clock.js"
import { ymd } from "../clock.js"
import type { FileStore } from "../files.js"
import { basicAuth, HttpError, sendBytes, sendJson, type Ctx } from "../http.js"
import { guardedRoutes, type Route } from "../router.js"
import {
  addRow,
  currentRow,
  EMPLOYEE_FIELDS,
  EMPLOYEE_ID_BASE,
  JOB_INFO_FIELDS,
  type EmployeeRec,
  type Fields,
  type HrisState,
  type TableRow
} from "./data.js"

/** The HRIS routes, modeled on the BambooHR API v1 (`/api/gateway.php/{companyDomain}/v1/...`). */

export interface HrisOptions {
  readonly apiKey: string
  readonly companyDomain: string
  readonly state: () => HrisState
  readonly files: () => FileStore
  readonly clock: Clock
}

/** BambooHR reports errors in a header, with an empty body. */
const bhrError = (status: number, message: string): HttpError => new HttpError(status, "", { "x-bamboohr-error-message": message })

const TABLE_FIELDS: Record<string, ReadonlyArray<string>> = {
  jobInfo: ["date", "location", "department", "division", "jobTitle", "reportsTo"],
  employmentStatus: ["date", "employmentStatus", "comment", "terminationReasonId", "terminationTypeId", "terminationRehireId", "terminationRegrettableId"],
  compensation: ["startDate", "rate", "type", "exempt", "reason", "comment", "paidPer", "paySchedule"]
}
const TABLE_DATE_FIELD: Record<string, string> = { jobInfo: "date", employmentStatus: "date", compensation: "startDate" }
const DATE_FIELDS = new Set(["hireDate", "originalHireDate", "terminationDate", "dateOfBirth", "date", "startDate"])
const READ_ONLY = new Set(["id", "displayName", "fullName1", "fullName2", "fullName3", "fullName4", "fullName5", "age", "lastChanged", "supervisor", "supervisorId", "supervisorEId", "supervisorEmail", "photoUrl", "canUploadPhoto", "employmentHistoryStatus"])

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

const xmlEscape = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const bhrTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00")

export const hrisRoutes = (o: HrisOptions): ReadonlyArray<Route> => {
  const S = (): HrisState => o.state()
  const base = "/api/gateway.php/:company/v1"

  const wantsJson = (ctx: Ctx): boolean => (ctx.req.headers.accept ?? "").toLowerCase().includes("application/json")

  const r = guardedRoutes({
    prefix: base,
    guard: (ctx, p) => {
      const creds = basicAuth(ctx.req)
      if (creds === undefined || creds.user !== o.apiKey) {
        throw new HttpError(401, "", { "www-authenticate": 'Basic realm="BambooHR API"', "x-bamboohr-error-message": "Invalid API key" })
      }
      if (p["company"] !== o.companyDomain) throw bhrError(404, `Company ${p["company"] ?? ""} not found`)
    }
  })

  const employeeOf = (raw: string | undefined): EmployeeRec => {
    // Employee 0 is the owner of the API key (the first employee here).
    const id = raw === "0" ? EMPLOYEE_ID_BASE : Number(raw)
    const e = Number.isInteger(id) ? S().employees.get(id) : undefined
    if (e === undefined) throw bhrError(404, `Employee ${raw ?? ""} not found`)
    return e
  }

  const rowsOf = (table: string, employeeId: number | "all"): Array<TableRow> => {
    const rows = S().tables.get(table)
    if (rows === undefined) throw bhrError(404, `Table ${table} not found`)
    return employeeId === "all" ? [...rows] : rows.filter((r) => r.employeeId === employeeId)
  }

  const nameOf = (id: string | null): string | null => {
    if (id === null) return null
    const e = S().employees.get(Number(id))
    return e === undefined ? null : `${e.fields["firstName"] ?? ""} ${e.fields["lastName"] ?? ""}`.trim()
  }

  /** Every readable field of an employee, derived fields included. */
  const allFields = (e: EmployeeRec, onlyCurrent: boolean, origin: string): Record<string, string | number | boolean | null> => {
    const f = e.fields
    const jobRows = rowsOf("jobInfo", e.id)
    const job = onlyCurrent ? currentRow(jobRows, "date", o.clock.now()) : jobRows.slice().sort((a, b) => ((a.fields["date"] ?? "") < (b.fields["date"] ?? "") ? -1 : 1)).pop()
    const statusRow = currentRow(rowsOf("employmentStatus", e.id), "date", o.clock.now())
    const supervisorId = job?.fields["reportsTo"] ?? null
    const supervisor = supervisorId === null ? undefined : S().employees.get(Number(supervisorId))
    const first = f["firstName"] ?? ""
    const last = f["lastName"] ?? ""
    const preferred = f["preferredName"]
    const dob = f["dateOfBirth"]
    const age = dob === null || dob === undefined ? null : String(Math.floor((o.clock.now() - Date.parse(dob)) / (365.25 * 24 * 3600 * 1000)))
    return {
      ...f,
      id: String(e.id),
      displayName: `${preferred ?? first} ${last}`.trim(),
      fullName1: `${first} ${last}`.trim(),
      fullName2: `${last}, ${first}`,
      fullName3: `${last}, ${first}${f["middleName"] ? ` ${f["middleName"]}` : ""}`,
      fullName4: `${last}, ${first}${f["middleName"] ? ` ${f["middleName"]}` : ""}`,
      fullName5: `${first}${f["middleName"] ? ` ${f["middleName"]}` : ""} ${last}`,
      age,
      jobTitle: job?.fields["jobTitle"] ?? null,
      department: job?.fields["department"] ?? null,
      division: job?.fields["division"] ?? null,
      location: job?.fields["location"] ?? null,
      supervisor: supervisor === undefined ? null : `${supervisor.fields["firstName"] ?? ""} ${supervisor.fields["lastName"] ?? ""}`.trim(),
      supervisorEId: supervisor === undefined ? null : String(supervisor.id),
      supervisorId: supervisor === undefined ? null : (supervisor.fields["employeeNumber"] ?? null),
      supervisorEmail: supervisor === undefined ? null : (supervisor.fields["workEmail"] ?? null),
      employmentHistoryStatus: statusRow?.fields["employmentStatus"] ?? f["employmentHistoryStatus"] ?? null,
      lastChanged: bhrTime(e.lastChanged),
      photoUrl: `${origin}/api/gateway.php/${o.companyDomain}/v1/employees/${e.id}/photo/small`,
      canUploadPhoto: 1,
      photoUploaded: f["photoUploaded"] === "true"
    }
  }

  const asString = (v: string | number | boolean | null | undefined): string | null => (v === null || v === undefined ? null : String(v))

  const rowView = (table: string, row: TableRow): Record<string, unknown> => {
    const out: Record<string, unknown> = { id: String(row.id), employeeId: String(row.employeeId) }
    for (const [k, v] of Object.entries(row.fields)) {
      if (table === "compensation" && k === "rate" && v !== null) out[k] = JSON.parse(v) as unknown
      else if (table === "jobInfo" && k === "reportsTo") out[k] = nameOf(v)
      else out[k] = v
    }
    return out
  }

  const send = (ctx: Ctx, json: unknown, xml: () => string): void => {
    if (wantsJson(ctx)) sendJson(ctx.res, 200, json)
    else {
      const text = `<?xml version="1.0"?>\n${xml()}`
      ctx.res.writeHead(200, { "content-type": "text/xml; charset=utf-8", "content-length": String(Buffer.byteLength(text)) })
      ctx.res.end(ctx.method === "HEAD" ? undefined : text)
    }
  }

  const fieldXml = (id: string, v: unknown): string => (v === null || v === undefined ? `<field id="${xmlEscape(id)}"/>` : `<field id="${xmlEscape(id)}">${xmlEscape(typeof v === "object" ? JSON.stringify(v) : String(v))}</field>`)

  /** The body as field/value pairs: JSON object, or BambooHR's `<employee><field id="x">v</field></employee>` XML. */
  const fieldsBody = (ctx: Ctx): Record<string, unknown> => {
    const type = (ctx.req.headers["content-type"] ?? "").toLowerCase()
    const text = ctx.rawBody.toString("utf8").trim()
    if (text.startsWith("<") || type.includes("xml")) {
      const out: Record<string, unknown> = {}
      for (const m of text.matchAll(/<field\s+id="([^"]+)"\s*(?:\/>|>([\s\S]*?)<\/field>)/g)) out[m[1] as string] = m[2] ?? null
      return out
    }
    let parsed: unknown
    try {
      parsed = text === "" ? {} : JSON.parse(text)
    } catch {
      throw bhrError(400, "Malformed JSON")
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw bhrError(400, "Expected a JSON object of field names and values")
    return parsed as Record<string, unknown>
  }

  const cleanValue = (field: string, value: unknown): string | null => {
    if (value === null) return null
    if (typeof value === "object") return JSON.stringify(value)
    const text = String(value)
    if (DATE_FIELDS.has(field) && text !== "" && (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text)))) throw bhrError(400, `Invalid date for ${field}: ${text} (use YYYY-MM-DD)`)
    return text === "" ? null : text
  }

  const resolveReportsTo = (value: string | null): string | null => {
    if (value === null) return null
    const s = S()
    if (/^\d+$/.test(value) && s.employees.has(Number(value))) return value
    const byName = [...s.employees.values()].find((e) => `${e.fields["firstName"] ?? ""} ${e.fields["lastName"] ?? ""}`.trim().toLowerCase() === value.trim().toLowerCase())
    if (byName === undefined) throw bhrError(400, `reportsTo ${value} is not an employee id or name`)
    return String(byName.id)
  }

  const tableRowFields = (table: string, body: Record<string, unknown>, requireDate: boolean): Fields => {
    const allowed = TABLE_FIELDS[table]
    if (allowed === undefined) throw bhrError(404, `Table ${table} not found`)
    const out: Fields = {}
    for (const [k, v] of Object.entries(body)) {
      if (!allowed.includes(k)) throw bhrError(400, `Unknown field ${k} for table ${table}`)
      out[k] = cleanValue(k, v)
    }
    const dateField = TABLE_DATE_FIELD[table] as string
    if (requireDate && (out[dateField] === undefined || out[dateField] === null)) throw bhrError(400, `${dateField} is required`)
    if (out["reportsTo"] !== undefined) out["reportsTo"] = resolveReportsTo(out["reportsTo"])
    if (table === "compensation" && out["rate"] !== undefined && out["rate"] !== null && !out["rate"].startsWith("{")) {
      const [value = "", currency = "USD"] = out["rate"].split(/\s+/)
      out["rate"] = JSON.stringify({ currency, value })
    }
    return out
  }


  return [
    r("GET", "/employees/directory", (ctx) => {
      const employees = [...S().employees.values()].filter((e) => e.fields["status"] === "Active")
      const rows = employees.map((e) => {
        const all = allFields(e, true, ctx.origin)
        const out: Record<string, unknown> = { id: String(e.id) }
        for (const [name] of DIRECTORY_FIELDS) out[name] = name === "photoUploaded" ? all["photoUploaded"] : name === "canUploadPhoto" ? 1 : asString(all[name])
        return out
      })
      const fields = DIRECTORY_FIELDS.map(([id, type, name]) => ({ id, type, name }))
      send(ctx, { fields, employees: rows }, () =>
        `<directory><fieldset>${fields.map((f) => `<field id="${f.id}">${xmlEscape(f.name)}</field>`).join("")}</fieldset><employees>${rows
          .map((row) => `<employee id="${row["id"] as string}">${DIRECTORY_FIELDS.map(([n]) => fieldXml(n, row[n])).join("")}</employee>`)
          .join("")}</employees></directory>`
      )
    }),
    r("GET", "/employees/changed", (ctx) => {
      const sinceRaw = ctx.query.get("since")
      if (sinceRaw === null) throw bhrError(400, "since is required (ISO 8601)")
      const since = Date.parse(sinceRaw)
      if (Number.isNaN(since)) throw bhrError(400, "since must be an ISO 8601 timestamp")
      const type = ctx.query.get("type")
      const employees: Record<string, { id: string; action: string; lastChanged: string }> = {}
      for (const e of S().employees.values()) {
        if (e.lastChanged < since) continue
        const action = e.createdAt >= since ? "Inserted" : "Updated"
        if (type !== null && type.toLowerCase() !== action.toLowerCase()) continue
        employees[String(e.id)] = { id: String(e.id), action, lastChanged: bhrTime(e.lastChanged) }
      }
      const latest = Math.max(0, ...[...S().employees.values()].map((e) => e.lastChanged))
      send(ctx, { latest: bhrTime(latest), employees }, () =>
        `<employees latest="${bhrTime(latest)}">${Object.values(employees)
          .map((x) => `<employee id="${x.id}" action="${x.action}" lastChanged="${x.lastChanged}"/>`)
          .join("")}</employees>`
      )
    }),
    r("POST", "/employees", (ctx) => {
      const body = fieldsBody(ctx)
      const first = body["firstName"]
      const last = body["lastName"]
      if (typeof first !== "string" || first.trim() === "" || typeof last !== "string" || last.trim() === "") throw bhrError(400, "firstName and lastName are required")
      const s = S()
      const fields: Fields = Object.fromEntries(EMPLOYEE_FIELDS.map((k) => [k, null]))
      const job: Fields = {}
      for (const [k, v] of Object.entries(body)) {
        if ((JOB_INFO_FIELDS as ReadonlyArray<string>).includes(k)) job[k] = cleanValue(k, v)
        else if ((EMPLOYEE_FIELDS as ReadonlyArray<string>).includes(k)) fields[k] = cleanValue(k, v)
        else throw bhrError(400, `Unknown or read-only field ${k}`)
      }
      const at = o.clock.tick()
      fields["status"] = fields["status"] ?? "Active"
      fields["photoUploaded"] = "false"
      const id = s.next.employee++
      fields["employeeNumber"] = fields["employeeNumber"] ?? String(1000 + id - EMPLOYEE_ID_BASE)
      s.employees.set(id, { id, fields, createdAt: at, lastChanged: at, files: [] })
      if (Object.keys(job).length > 0) addRow(s, "jobInfo", id, { date: fields["hireDate"] ?? ymd(at), location: null, department: null, division: null, jobTitle: null, reportsTo: null, ...job })
      ctx.res.writeHead(201, { location: `${ctx.origin}/api/gateway.php/${o.companyDomain}/v1/employees/${id}`, "content-length": "0" })
      ctx.res.end()
    }),
    r("GET", "/employees/:id", (ctx, p) => {
      const e = employeeOf(p["id"])
      const wanted = (ctx.query.get("fields") ?? "firstName,lastName").split(",").map((x) => x.trim()).filter((x) => x.length > 0)
      const all = allFields(e, ctx.query.get("onlyCurrent") !== "false", ctx.origin)
      const out: Record<string, unknown> = { id: String(e.id) }
      for (const name of wanted) out[name] = name === "photoUploaded" || name === "canUploadPhoto" ? all[name] : asString(all[name])
      send(ctx, out, () => `<employee id="${e.id}">${wanted.map((n) => fieldXml(n, out[n])).join("")}</employee>`)
    }),
    r("POST", "/employees/:id", (ctx, p) => {
      const e = employeeOf(p["id"])
      const body = fieldsBody(ctx)
      if (Object.keys(body).length === 0) throw bhrError(400, "No fields to update")
      const next: Fields = {}
      const job: Fields = {}
      for (const [k, v] of Object.entries(body)) {
        if (READ_ONLY.has(k)) throw bhrError(400, `Field ${k} is read-only`)
        if ((JOB_INFO_FIELDS as ReadonlyArray<string>).includes(k)) job[k] = cleanValue(k, v)
        else if ((EMPLOYEE_FIELDS as ReadonlyArray<string>).includes(k)) next[k] = cleanValue(k, v)
        else throw bhrError(400, `Unknown field ${k}`)
      }
      const at = o.clock.tick()
      Object.assign(e.fields, next)
      if (Object.keys(job).length > 0) {
        const current = currentRow(rowsOf("jobInfo", e.id), "date", o.clock.now())
        if (current !== undefined) Object.assign(current.fields, job)
        else addRow(S(), "jobInfo", e.id, { date: ymd(at), location: null, department: null, division: null, jobTitle: null, reportsTo: null, ...job })
      }
      e.lastChanged = at
      ctx.res.writeHead(200, { "content-length": "0" })
      ctx.res.end()
    }),
    r("GET", "/employees/:id/tables/:table", (ctx, p) => {
      const table = p["table"] as string
      const rows = p["id"] === "all" ? rowsOf(table, "all") : rowsOf(table, employeeOf(p["id"]).id)
      const views = rows.map((row) => rowView(table, row))
      send(ctx, views, () =>
        `<table>${views
          .map((v) => `<row id="${v["id"] as string}" employeeId="${v["employeeId"] as string}">${Object.entries(v).filter(([k]) => k !== "id" && k !== "employeeId").map(([k, val]) => fieldXml(k, val)).join("")}</row>`)
          .join("")}</table>`
      )
    }),
    r("POST", "/employees/:id/tables/:table", (ctx, p) => {
      const e = employeeOf(p["id"])
      const table = p["table"] as string
      const fields = tableRowFields(table, fieldsBody(ctx), true)
      const template = Object.fromEntries((TABLE_FIELDS[table] as ReadonlyArray<string>).map((k) => [k, null]))
      const row = addRow(S(), table, e.id, { ...template, ...fields })
      e.lastChanged = o.clock.tick()
      ctx.res.writeHead(200, { location: `${ctx.origin}/api/gateway.php/${o.companyDomain}/v1/employees/${e.id}/tables/${table}/${row.id}`, "content-length": "0" })
      ctx.res.end()
    }),
    r("POST", "/employees/:id/tables/:table/:rowId", (ctx, p) => {
      const e = employeeOf(p["id"])
      const table = p["table"] as string
      const row = rowsOf(table, e.id).find((x) => String(x.id) === p["rowId"])
      if (row === undefined) throw bhrError(404, `Row ${p["rowId"] ?? ""} not found`)
      Object.assign(row.fields, tableRowFields(table, fieldsBody(ctx), false))
      e.lastChanged = o.clock.tick()
      ctx.res.writeHead(200, { "content-length": "0" })
      ctx.res.end()
    }),
    r("GET", "/employees/:id/files/view", (ctx, p) => {
      const e = employeeOf(p["id"])
      const categories = S().categories.map((c) => ({
        id: c.id,
        name: c.name,
        canRenameCategory: "yes",
        canDeleteCategory: "yes",
        canUploadFiles: "yes",
        displayIfEmpty: "yes",
        files: e.files
          .filter((f) => f.categoryId === c.id)
          .map((f) => ({
            id: f.id,
            name: f.name,
            originalFileName: f.originalFileName,
            size: f.size,
            dateCreated: new Date(f.dateCreated).toISOString().replace(/\.\d{3}Z$/, "+0000"),
            createdBy: f.createdBy,
            shareWithEmployee: f.shareWithEmployee,
            canRenameFile: "yes",
            canDeleteFile: "yes",
            canChangeShareWithEmployeeFieldValue: "yes"
          }))
      }))
      send(ctx, { employee: { id: e.id }, categories }, () =>
        `<employee id="${e.id}">${categories
          .map((c) => `<category id="${c.id}"><name>${xmlEscape(c.name)}</name>${c.files
            .map((f) => `<file id="${f.id}"><name>${xmlEscape(f.name)}</name><originalFileName>${xmlEscape(f.originalFileName)}</originalFileName><size>${f.size}</size><dateCreated>${f.dateCreated}</dateCreated><createdBy>${xmlEscape(f.createdBy)}</createdBy><shareWithEmployee>${f.shareWithEmployee}</shareWithEmployee></file>`)
            .join("")}</category>`)
          .join("")}</employee>`
      )
    }),
    r("GET", "/employees/:id/files/:fileId", (ctx, p) => {
      const e = employeeOf(p["id"])
      const meta = e.files.find((f) => String(f.id) === p["fileId"])
      const store = o.files()
      const file = meta === undefined ? undefined : store.get(meta.id)
      const bytes = meta === undefined ? undefined : store.bytes(meta.id)
      if (meta === undefined || file === undefined || bytes === undefined) throw bhrError(404, `File ${p["fileId"] ?? ""} not found`)
      sendBytes(ctx.res, 200, bytes, { "content-type": file.contentType, "content-disposition": `attachment; filename="${meta.originalFileName.replace(/"/g, "")}"` })
    }),
    r("GET", "/meta/fields", (ctx) => {
      const names = [...EMPLOYEE_FIELDS, ...JOB_INFO_FIELDS, "displayName", "supervisor", "supervisorEId", "employmentHistoryStatus", "lastChanged"]
      const fields = names.map((alias, i) => ({ id: i + 1, name: alias.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase()), type: DATE_FIELDS.has(alias) ? "date" : (JOB_INFO_FIELDS as ReadonlyArray<string>).includes(alias) ? "list" : "text", alias }))
      send(ctx, fields, () => `<fields>${fields.map((f) => `<field id="${f.id}" type="${f.type}" alias="${f.alias}">${xmlEscape(f.name)}</field>`).join("")}</fields>`)
    }),
    r("GET", "/meta/lists", (ctx) => {
      const values = (field: string): Array<string> => [...new Set(rowsOf("jobInfo", "all").map((row) => row.fields[field]).filter((v): v is string => v !== null && v !== undefined))].sort()
      const lists = JOB_INFO_FIELDS.map((alias, i) => ({
        fieldId: i + 1,
        alias,
        manageable: "yes",
        multiple: "no",
        name: alias.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase()),
        options: values(alias).map((name, k) => ({ id: (i + 1) * 100 + k, archived: "no", createdDate: null, archivedDate: null, name }))
      }))
      send(ctx, lists, () => `<lists>${lists.map((l) => `<list fieldId="${l.fieldId}" alias="${l.alias}"><name>${xmlEscape(l.name)}</name><options>${l.options.map((x) => `<option id="${x.id}" archived="no">${xmlEscape(x.name)}</option>`).join("")}</options></list>`).join("")}</lists>`)
    })
  ]
}

export const hrisNotFound = (ctx: Ctx): void => {
  ctx.res.writeHead(404, { "content-length": "0", "x-bamboohr-error-message": "Not found" })
  ctx.res.end()
}
