import type { HttpApiEndpoint } from "@effect/platform"
import { Api, unifiedOperationOf } from "@switchyard/api"
import { Option } from "effect"

/** Every unified list and get endpoint of the API, with its kind, action id and group. */
export const unifiedReads = Object.values(Api.groups).flatMap((group) =>
  Object.values(group.endpoints as unknown as Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>).flatMap((endpoint) => {
    const operation = unifiedOperationOf(endpoint)
    return Option.isSome(operation) && (operation.value.kind === "list" || operation.value.kind === "get")
      ? [{ endpoint, kind: operation.value.kind, actionId: operation.value.actionId, group: group.identifier }]
      : []
  })
)

/** Top-level lists first, then lists under a record, then gets: each takes its ids from those before it. */
export const readRank = (read: { readonly kind: string; readonly endpoint: { readonly path: string } }) =>
  read.kind === "list" ? (read.endpoint.path.includes("/:") ? 1 : 0) : 2
