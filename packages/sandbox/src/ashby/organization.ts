import type { Route } from "../router.js"
import type { AshbyContext } from "./AshbyContext.js"
import type { AshbyState } from "./data.js"
import { notFound } from "./errors.js"
import type { AshbyViews } from "./views.js"

/** A record kind with `<name>.list` (paged, some records only on request) and `<name>.info` by `idField`. */
interface Listed<T> {
  readonly name: string
  readonly idField: string
  readonly records: (state: AshbyState) => Map<string, T>
  /** Whether a list shows the record, given the request (e.g. includeArchived). */
  readonly shown: (body: Record<string, unknown>, record: T) => boolean
  readonly updatedAt: (record: T) => number
  readonly view: (views: AshbyViews, record: T) => unknown
  readonly missing: string
}

const listAndInfo = <T>(context: AshbyContext, kind: Listed<T>): ReadonlyArray<Route> => [
  context.endpoint(`${kind.name}.list`, (ctx, body) => {
    const views = context.views()
    context.page(ctx, body, {
      items: [...kind.records(context.state).values()].filter((record) => kind.shown(body, record)),
      updatedAt: kind.updatedAt,
      view: (record) => kind.view(views, record)
    })
  }),
  context.endpoint(`${kind.name}.info`, (ctx, body) => {
    const record = kind.records(context.state).get(context.required(body, kind.idField))
    if (record === undefined) throw notFound(kind.name, kind.missing)
    context.ok(ctx, kind.view(context.views(), record))
  })
]

/**
 * user.list/info, department.list/info and location.list/info (the organizationRead endpoints):
 * deactivated users only with includeDeactivated, archived departments and locations only with
 * includeArchived.
 */
export const organizationRoutes = (context: AshbyContext): ReadonlyArray<Route> => [
  ...listAndInfo(context, {
    name: "user",
    idField: "userId",
    records: (state) => state.users,
    shown: (body, user) => body["includeDeactivated"] === true || user.isEnabled,
    updatedAt: (user) => user.updatedAt,
    view: (views, user) => views.user(user),
    missing: "User not found"
  }),
  ...listAndInfo(context, {
    name: "department",
    idField: "departmentId",
    records: (state) => state.departments,
    shown: (body, department) => body["includeArchived"] === true || !department.isArchived,
    updatedAt: (department) => department.updatedAt,
    view: (views, department) => views.department(department),
    missing: "Department not found"
  }),
  ...listAndInfo(context, {
    name: "location",
    idField: "locationId",
    records: (state) => state.locations,
    shown: (body, location) => body["includeArchived"] === true || !location.isArchived,
    updatedAt: (location) => location.updatedAt,
    view: (views, location) => views.location(location),
    missing: "Location not found"
  })
]
