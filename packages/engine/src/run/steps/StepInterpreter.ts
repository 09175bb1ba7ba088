import type { Effect } from "effect"
import type { StepKind, StepPlan } from "../../actionPlan.js"
import type { RunFailure } from "../../RunErrors.js"
import type { RunState, StepOutput } from "../RunState.js"
import { downloadFile } from "./downloadFile.js"
import { groupData } from "./groupData.js"
import { httpRequest } from "./httpRequest.js"
import { mapFields } from "./mapFields.js"
import { mcpRequest } from "./mcpRequest.js"
import { paginatedRequest } from "./paginatedRequest.js"
import { staticValues } from "./staticValues.js"
import { typecast } from "./typecast.js"
import { uploadFile } from "./uploadFile.js"

export type StepKindOf<Tag extends StepKind["_tag"]> = Extract<StepKind, { _tag: Tag }>

/**
 * Runs one step of its kind. Steps that call the provider bound themselves by the step
 * deadline (`paginated_request` per page); CPU-only steps are bounded by `maxRecords`.
 */
export type StepInterpreter<Tag extends StepKind["_tag"]> = (
  run: RunState,
  step: StepPlan,
  kind: StepKindOf<Tag>
) => Effect.Effect<StepOutput, RunFailure>

/** One interpreter per step kind; a new kind in `StepKind` does not compile until it has one. */
export const stepInterpreters: { readonly [Tag in StepKind["_tag"]]: StepInterpreter<Tag> } = {
  request: httpRequest,
  paginated_request: paginatedRequest,
  map_fields: mapFields,
  typecast,
  static_values: staticValues,
  group_data: groupData,
  download_file: downloadFile,
  upload_file: uploadFile,
  mcp_request: mcpRequest
}

export const interpret = (run: RunState, step: StepPlan): Effect.Effect<StepOutput, RunFailure> => {
  const interpreter = stepInterpreters[step.kind._tag] as StepInterpreter<typeof step.kind._tag>
  return interpreter(run, step, step.kind)
}
