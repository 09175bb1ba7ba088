import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { RecruiteePlacement } from "./data.js"
import { recruiteeBody, recruiteeError } from "./errors.js"
import type { RecruiteeContext } from "./recruiteeContext.js"
import { placementView } from "./views.js"

/*
 * A placement's pipeline and the company's disqualify reasons, as public integrations of Recruitee's API
 * call them (github.com/metorial/metorial, integrations/recruitee/src/lib/client.ts, built on
 * apidocs.recruitee.com; github.com/w6w-io/w6w-apps, apps/recruitee/actions/placement-change-stage.ts):
 *   - PATCH /placements/{id}/change_stage with a flat body whose stage_id is required; it answers
 *     {"placement": {...}} standing in that stage;
 *   - PATCH /placements/{id}/disqualify with disqualify_reason_id ("Pipeline disqualification requires a
 *     configured reason ID"); it answers {"placement": {...}}, now disqualified;
 *   - GET /disqualify_reasons answers {"disqualify_reasons": [{id, name, position}]}.
 * Ids arrive as numbers or as their text (Rails casts either); anything else, or an id the company does not
 * have, is refused as Recruitee refuses a record it cannot save: 422 naming the field.
 */

/** The id in `body[field]`, or a 422 naming the field when it is missing or not an id. */
const idField = (body: Record<string, unknown>, field: string): number => {
  const raw = body[field]
  if (raw === undefined || raw === null || raw === "") throw recruiteeError(422, `${field} can't be blank`, { [field]: ["can't be blank"] })
  const id = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN
  if (!Number.isSafeInteger(id)) throw recruiteeError(422, `${field} is invalid`, { [field]: ["is invalid"] })
  return id
}

export const placementRoutes = (context: RecruiteeContext): ReadonlyArray<Route> => {
  const placement = (raw: string): RecruiteePlacement => {
    const id = Number(raw)
    const found = context.state.candidates.flatMap((candidate) => candidate.placements).find((p) => p.id === id)
    if (found === undefined) throw recruiteeError(404, "Not found")
    return found
  }
  /** The placement's candidate shows the change too (its updated_at), as any change to its placements. */
  const touch = (changed: RecruiteePlacement): void => {
    const at = context.tick()
    changed.updated_at = at
    const candidate = context.state.candidates.find((c) => c.id === changed.candidate_id)
    if (candidate !== undefined) candidate.updated_at = at
  }

  return [
    context.route("PATCH", "/placements/:id/change_stage", (ctx, params) => {
      const target = placement(params["id"] ?? "")
      const stageId = idField(recruiteeBody(ctx), "stage_id")
      if (!context.state.stages.some((stage) => stage.id === stageId)) throw recruiteeError(422, "Stage is invalid", { stage_id: ["is invalid"] })
      target.stage_id = stageId
      touch(target)
      sendJson(ctx.res, 200, { placement: placementView(target) })
    }),
    context.route("PATCH", "/placements/:id/disqualify", (ctx, params) => {
      const target = placement(params["id"] ?? "")
      const reasonId = idField(recruiteeBody(ctx), "disqualify_reason_id")
      const reason = context.state.disqualifyReasons.find((r) => r.id === reasonId)
      if (reason === undefined) throw recruiteeError(422, "Disqualify reason is invalid", { disqualify_reason_id: ["is invalid"] })
      target.disqualified = true
      target.disqualify_reason = reason.name
      touch(target)
      sendJson(ctx.res, 200, { placement: placementView(target) })
    }),
    context.route("GET", "/disqualify_reasons", (ctx) => {
      sendJson(ctx.res, 200, {
        disqualify_reasons: [...context.state.disqualifyReasons].sort((a, b) => a.position - b.position).map((r) => ({ id: r.id, name: r.name, position: r.position }))
      })
    })
  ]
}
