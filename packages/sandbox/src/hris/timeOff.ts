import { ymd } from "../clock.js"
import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { perDayIn, type TimeOffRequestRec, type TimeOffStatus, weekdayAmounts } from "./data.js"
import { bambooError } from "./errors.js"
import { fullName, type HrisContext } from "./hrisContext.js"
import { sendJsonOrXml, xmlEscape } from "./jsonOrXml.js"

/**
 * Time off, as BambooHR's document describes it: the company's types and policies, requests
 * (listed over a date window, created for an employee, their status changed) and an employee's
 * balances. Request bodies are JSON (BambooHR also takes XML, which this look-alike does not).
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/
const isDate = (value: unknown): value is string => typeof value === "string" && DATE.test(value) && !Number.isNaN(Date.parse(value))

const WEEK = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

/** A JSON object body; anything else is BambooHR's 400. */
const jsonBody = (ctx: Ctx): Record<string, unknown> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(ctx.rawBody.toString("utf8"))
  } catch {
    throw bambooError(400, "Malformed JSON")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw bambooError(400, "Expected a JSON object")
  return parsed as Record<string, unknown>
}

const wantsJson = (ctx: Ctx): boolean => (ctx.req.headers.accept ?? "").toLowerCase().includes("application/json")

/** Comma lists of the query (`type=64,65`). */
const listParam = (ctx: Ctx, name: string): Array<string> | undefined => {
  const value = ctx.query.get(name)
  return value === null ? undefined : value.split(",").map((part) => part.trim()).filter((part) => part.length > 0)
}

export const timeOffRoutes = (context: HrisContext): ReadonlyArray<Route> => {
  /** A request as List Time Off Requests answers it (ids as integers, dates as YYYY-MM-DD). */
  const requestView = (request: TimeOffRequestRec, withNotes: boolean): Record<string, unknown> => {
    const state = context.state
    const employee = state.employees.get(request.employeeId)
    const type = state.timeOffTypes.find((candidate) => candidate.id === request.typeId)
    const pending = request.status === "requested"
    return {
      id: request.id,
      employeeId: request.employeeId,
      name: employee === undefined ? "" : fullName(employee),
      start: request.start,
      end: request.end,
      created: ymd(request.created),
      status: { lastChanged: ymd(request.lastChanged), lastChangedByUserId: 1, status: request.status },
      type: { id: request.typeId, name: type?.name ?? "", icon: type?.icon ?? "" },
      amount: { unit: type?.units ?? "days", amount: request.amount },
      actions: { view: true, edit: pending, cancel: pending || request.status === "approved", approve: pending, deny: pending, bypass: true },
      dates: request.dates,
      ...(withNotes ? { notes: request.notes } : {})
    }
  }

  const requestXml = (view: Record<string, unknown>): string => {
    const status = view["status"] as { lastChanged: string; status: string }
    const type = view["type"] as { id: number; name: string }
    const amount = view["amount"] as { unit: string; amount: number }
    return `<request id="${String(view["id"])}"><employee id="${String(view["employeeId"])}">${xmlEscape(String(view["name"]))}</employee>` +
      `<status lastChanged="${status.lastChanged}">${status.status}</status><start>${String(view["start"])}</start><end>${String(view["end"])}</end>` +
      `<created>${String(view["created"])}</created><type id="${type.id}">${xmlEscape(type.name)}</type><amount unit="${amount.unit}">${amount.amount}</amount></request>`
  }

  return [
    context.route("GET", "/meta/time_off/types", (ctx) => {
      const timeOffTypes = context.state.timeOffTypes.map((type) => ({ ...type, source: "internal" }))
      // Monday to Friday, eight hours
      const defaultHours = WEEK.map((name, day) => ({ name, amount: day === 0 || day === 6 ? "0" : "8" }))
      sendJsonOrXml(ctx, { timeOffTypes, defaultHours }, () =>
        `<timeOffTypes>${timeOffTypes.map((type) => `<timeOffType id="${type.id}"><name>${xmlEscape(type.name)}</name><units>${type.units}</units></timeOffType>`).join("")}</timeOffTypes>`)
    }),
    context.route("GET", "/meta/time_off/policies", (ctx) => {
      const policies = context.state.timeOffPolicies
        .map((policy) => ({ id: policy.id, timeOffTypeId: policy.timeOffTypeId, name: policy.name, effectiveDate: null, type: policy.type }))
        .sort((left, right) => left.name.localeCompare(right.name))
      sendJsonOrXml(ctx, policies, () =>
        `<policies>${policies.map((policy) => `<policy id="${policy.id}" timeOffTypeId="${policy.timeOffTypeId}" type="${policy.type}">${xmlEscape(policy.name)}</policy>`).join("")}</policies>`)
    }),
    context.route("GET", "/time_off/requests", (ctx) => {
      const start = ctx.query.get("start")
      const end = ctx.query.get("end")
      if (!isDate(start) || !isDate(end)) throw bambooError(400, "start and end are required (YYYY-MM-DD)")
      const id = ctx.query.get("id")
      const employeeId = ctx.query.get("employeeId")
      const types = listParam(ctx, "type")
      const statuses = listParam(ctx, "status")
      const action = ctx.query.get("action") ?? "view"
      if (!["view", "approve", "myRequests"].includes(action)) throw bambooError(400, `Unknown action ${action}`)
      const owner = context.employee("0").id
      const requests = context.state.timeOffRequests
        .filter((request) => request.end >= start && request.start <= end)
        .filter((request) => id === null || String(request.id) === id)
        .filter((request) => employeeId === null || String(request.employeeId) === employeeId)
        .filter((request) => types === undefined || types.includes(String(request.typeId)))
        .filter((request) => statuses === undefined || statuses.includes(request.status))
        .filter((request) => action !== "approve" || request.status === "requested")
        .filter((request) => action !== "myRequests" || request.employeeId === owner)
        .sort((left, right) => (left.start < right.start ? -1 : left.start > right.start ? 1 : left.id - right.id))
      const views = requests.map((request) => requestView(request, ctx.query.get("excludeNote") === null))
      sendJsonOrXml(ctx, views, () => `<requests>${views.map(requestXml).join("")}</requests>`)
    }),
    context.route("PUT", "/employees/:employeeId/time_off/request", (ctx, params) => {
      const employee = context.employee(params["employeeId"])
      const body = jsonBody(ctx)
      const state = context.state
      const status = body["status"]
      if (status !== "approved" && status !== "denied" && status !== "declined" && status !== "requested") {
        throw bambooError(400, "status must be approved, denied, declined or requested")
      }
      const start = body["start"]
      const end = body["end"]
      if (!isDate(start) || !isDate(end)) throw bambooError(400, "start and end are required (YYYY-MM-DD)")
      if (end < start) throw bambooError(400, "end must be on or after start")
      const type = state.timeOffTypes.find((candidate) => candidate.id === body["timeOffTypeId"])
      if (type === undefined) throw bambooError(400, `Invalid time off type ${JSON.stringify(body["timeOffTypeId"] ?? null)}`)
      // the per-day breakdown wins over amount; with neither, every weekday counts a day
      let dates = weekdayAmounts(start, end, perDayIn(type.units))
      let amount: number | undefined
      if (body["dates"] !== undefined) {
        if (!Array.isArray(body["dates"])) throw bambooError(400, "dates must be a list of {ymd, amount}")
        dates = {}
        for (const day of body["dates"] as Array<Record<string, unknown>>) {
          if (!isDate(day?.["ymd"]) || typeof day["amount"] !== "number") throw bambooError(400, "dates must be a list of {ymd, amount}")
          dates[day["ymd"]] = day["amount"]
        }
      } else if (body["amount"] !== undefined) {
        if (typeof body["amount"] !== "number" || body["amount"] < 0) throw bambooError(400, "amount must be a number")
        amount = body["amount"]
      }
      const notes: TimeOffRequestRec["notes"] = {}
      if (body["notes"] !== undefined) {
        if (!Array.isArray(body["notes"])) throw bambooError(400, "notes must be a list of {from, note}")
        for (const note of body["notes"] as Array<Record<string, unknown>>) {
          if ((note?.["from"] !== "employee" && note?.["from"] !== "manager") || typeof note["note"] !== "string") {
            throw bambooError(400, "notes must be a list of {from: employee|manager, note}")
          }
          notes[note["from"]] = note["note"]
        }
      }
      // "A previousRequest ID supersedes an existing request, cancelling the original"
      let previous: TimeOffRequestRec | undefined
      if (body["previousRequest"] !== undefined) {
        previous = state.timeOffRequests.find((request) => request.id === body["previousRequest"] && request.employeeId === employee.id)
        if (previous === undefined) throw bambooError(400, `Invalid previous request ${JSON.stringify(body["previousRequest"])}`)
      }
      const at = context.tick()
      if (previous !== undefined) {
        previous.status = "superceded"
        previous.lastChanged = at
      }
      const request: TimeOffRequestRec = {
        id: state.next.timeOffRequest++,
        employeeId: employee.id,
        typeId: type.id,
        start,
        end,
        dates,
        amount: amount ?? Object.values(dates).reduce((sum, day) => sum + day, 0),
        status: status === "declined" ? "denied" : status,
        created: at,
        lastChanged: at,
        notes
      }
      state.timeOffRequests.push(request)
      const location = `${context.apiBase(ctx.origin)}/time_off/requests/${request.id}`
      // "When Accept: application/json is set, the response body contains the created request"
      if (wantsJson(ctx)) sendJson(ctx.res, 201, requestView(request, true), { location })
      else {
        ctx.res.writeHead(201, { location, "content-length": "0" })
        ctx.res.end()
      }
    }),
    context.route("PUT", "/time_off/requests/:requestId/status", (ctx, params) => {
      const request = context.state.timeOffRequests.find((candidate) => String(candidate.id) === params["requestId"])
      if (request === undefined) throw bambooError(404, `Time off request ${params["requestId"] ?? ""} not found`)
      const body = jsonBody(ctx)
      const status = body["status"]
      const next: Record<string, TimeOffStatus> = { approved: "approved", denied: "denied", declined: "denied", canceled: "canceled", cancelled: "canceled" }
      if (typeof status !== "string" || next[status] === undefined) throw bambooError(400, "status must be approved, denied, declined or canceled")
      if (body["note"] !== undefined && typeof body["note"] !== "string") throw bambooError(400, "note must be text")
      request.status = next[status] as TimeOffStatus
      request.lastChanged = context.tick()
      if (typeof body["note"] === "string") request.notes.manager = body["note"]
      ctx.res.writeHead(200, { "content-length": "0" })
      ctx.res.end()
    }),
    context.route("GET", "/employees/:employeeId/time_off/calculator", (ctx, params) => {
      const employee = context.employee(params["employeeId"])
      const end = ctx.query.get("end") ?? ymd(context.now())
      if (!isDate(end)) throw bambooError(400, "end must be YYYY-MM-DD")
      const precision = Number(ctx.query.get("precision") ?? "2")
      if (!Number.isInteger(precision) || precision < 0 || precision > 4) throw bambooError(400, "precision must be 0 to 4")
      const state = context.state
      const yearStart = `${end.slice(0, 4)}-01-01`
      // a policy's yearly grant less the approved time off of the year up to `end`
      const balances = state.timeOffPolicies.map((policy) => {
        const type = state.timeOffTypes.find((candidate) => candidate.id === policy.timeOffTypeId)
        const used = state.timeOffRequests
          .filter((request) => request.employeeId === employee.id && request.typeId === policy.timeOffTypeId && request.status === "approved")
          .flatMap((request) => Object.entries(request.dates))
          .filter(([date]) => date >= yearStart && date <= end)
          .reduce((sum, [, amount]) => sum + amount, 0)
        return {
          timeOffType: String(policy.timeOffTypeId),
          name: type?.name ?? policy.name,
          units: type?.units ?? "days",
          balance: (policy.type === "discretionary" ? 0 : policy.perYear - used).toFixed(precision),
          end,
          policyType: policy.type,
          usedYearToDate: used.toFixed(precision)
        }
      })
      sendJsonOrXml(ctx, balances, () =>
        `<balances>${balances.map((balance) => `<timeOffType id="${balance.timeOffType}"><name>${xmlEscape(balance.name)}</name><units>${balance.units}</units><balance>${balance.balance}</balance></timeOffType>`).join("")}</balances>`)
    })
  ]
}
