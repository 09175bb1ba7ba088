import { Api, type UnifiedKind, unifiedOperationOf } from "@switchyard/api"
import { Option } from "effect"

/** A unified endpoint as the api declares it: what it runs and how it is called. */
export interface UnifiedOperationEntry {
  readonly actionId: string
  readonly kind: UnifiedKind
  readonly method: string
  /** OpenAPI style: `/unified/ats/applications/{id}`. */
  readonly path: string
  /** `ats` of `/unified/ats/applications/{id}`. */
  readonly category: string
  /** `applications` of `/unified/ats/applications/{id}`: the record family the endpoint serves. */
  readonly model: string
}

/** Every unified endpoint of the api, in declaration order; read once, the api does not change at run time. */
export const unifiedOperations: ReadonlyArray<UnifiedOperationEntry> = Object.values(Api.groups).flatMap((group) =>
  Object.values(group.endpoints).flatMap((endpoint) =>
    Option.toArray(unifiedOperationOf(endpoint)).map((operation) => {
      const [, , category = "", model = ""] = endpoint.path.split("/")
      return {
        actionId: operation.actionId,
        kind: operation.kind,
        method: endpoint.method,
        path: endpoint.path.replace(/:(\w+)/g, "{$1}"),
        category,
        model
      }
    })
  )
)
