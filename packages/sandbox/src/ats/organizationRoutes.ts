import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import { FIELD_TYPES } from "./customFieldDefinitions.js"
import { notFoundError } from "./errors.js"
import { pathId } from "./params.js"

/**
 * What the organization has configured (read only): departments, offices and custom field
 * definitions. Departments and offices are flat (`render_as=tree` answers the same records) and have
 * no external ids, so an `external_id` filter matches none.
 */
export const organizationRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/departments", (ctx) => {
    const views = context.views(ctx)
    const items = ctx.query.get("external_id") === null ? [...context.state.departments.values()] : []
    sendJson(ctx.res, 200, context.page(ctx, items).map((department) => views.department(department)))
  }),
  context.route("GET", "/v1/departments/:id", (ctx, params) =>
    sendJson(ctx.res, 200, context.views(ctx).department(found(context.state.departments.get(pathId(params["id"])))))
  ),
  context.route("GET", "/v1/offices", (ctx) => {
    const views = context.views(ctx)
    const items = ctx.query.get("external_id") === null ? [...context.state.offices.values()] : []
    sendJson(ctx.res, 200, context.page(ctx, items).map((office) => views.office(office)))
  }),
  context.route("GET", "/v1/offices/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).office(found(context.state.offices.get(pathId(params["id"])))))),
  // all definitions are active, so include_inactive changes nothing
  context.route("GET", "/v1/custom_fields/:field_type", (ctx, params) => {
    const fieldType = params["field_type"]
    if (!(FIELD_TYPES as ReadonlyArray<string | undefined>).includes(fieldType)) throw notFoundError()
    const views = context.views(ctx)
    const items = [...context.state.fieldDefinitions.values()].filter((definition) => definition.field_type === fieldType)
    sendJson(ctx.res, 200, context.page(ctx, items).map((definition) => views.fieldDefinition(definition)))
  }),
  context.route("GET", "/v1/custom_field/:id", (ctx, params) =>
    sendJson(ctx.res, 200, context.views(ctx).fieldDefinition(found(context.state.fieldDefinitions.get(pathId(params["id"])))))
  )
]
