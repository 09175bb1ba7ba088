import type { Clock } from "../clock.js"
import type { FileStore } from "../files.js"
import { basicAuth } from "../http/basicAuth.js"
import { HttpError } from "../http/httpError.js"
import { guardedRoutes, type Handler, type Route } from "../router.js"
import { EMPLOYEE_ID_BASE, type EmployeeRec, type HrisState, type TableRow } from "./data.js"
import { bambooError } from "./errors.js"

export interface HrisOptions {
  readonly apiKey: string
  readonly companyDomain: string
  readonly state: () => HrisState
  readonly files: () => FileStore
  readonly clock: Clock
}

/** "First Last", as BambooHR names an employee in supervisor and reportsTo values. */
export const fullName = (employee: EmployeeRec): string => `${employee.fields["firstName"] ?? ""} ${employee.fields["lastName"] ?? ""}`.trim()

/** What every HRIS resource module shares: the current data, the clock, and lookups that answer BambooHR's 404s. */
export class HrisContext {
  /**
   * A route under `/api/gateway.php/{companyDomain}/v1`, behind BambooHR's Basic authentication
   * (the API key as user, any password); another company domain is a 404.
   */
  readonly route: (method: string, pattern: string, handler: Handler) => Route

  constructor(private readonly options: HrisOptions) {
    this.route = guardedRoutes({
      prefix: "/api/gateway.php/:company/v1",
      guard: (ctx, params) => {
        const credentials = basicAuth(ctx.req)
        if (credentials === undefined || credentials.user !== options.apiKey) {
          throw new HttpError(401, "", { "www-authenticate": 'Basic realm="BambooHR API"', "x-bamboohr-error-message": "Invalid API key" })
        }
        if (params["company"] !== options.companyDomain) throw bambooError(404, `Company ${params["company"] ?? ""} not found`)
      }
    })
  }

  /** Read on each use: a sandbox reset replaces the data. */
  get state(): HrisState {
    return this.options.state()
  }

  get files(): FileStore {
    return this.options.files()
  }

  /** The company's BambooHR domain (the `{companyDomain}` of its URLs). */
  get companyDomain(): string {
    return this.options.companyDomain
  }

  /** The current time, for "current row" and age computations. */
  now(): number {
    return this.options.clock.now()
  }

  /** The time of a write (the logical clock moves on by one step). */
  tick(): number {
    return this.options.clock.tick()
  }

  /** The API's base URL as the client reached it, for Location headers and photo URLs. */
  apiBase(origin: string): string {
    return `${origin}/api/gateway.php/${this.options.companyDomain}/v1`
  }

  employee(rawId: string | undefined): EmployeeRec {
    // Employee 0 is the owner of the API key (the first employee here).
    const id = rawId === "0" ? EMPLOYEE_ID_BASE : Number(rawId)
    const employee = Number.isInteger(id) ? this.state.employees.get(id) : undefined
    if (employee === undefined) throw bambooError(404, `Employee ${rawId ?? ""} not found`)
    return employee
  }

  /** The rows of a table (jobInfo, employmentStatus, compensation) for one employee or for all. */
  rows(table: string, employeeId: number | "all"): Array<TableRow> {
    const rows = this.state.tables.get(table)
    if (rows === undefined) throw bambooError(404, `Table ${table} not found`)
    return employeeId === "all" ? [...rows] : rows.filter((row) => row.employeeId === employeeId)
  }
}
