import type { OperationMatch } from "./matchOperation.js"
import { compactName } from "./names.js"
import { type Category, UNIFIED_CATALOGUE, type UnifiedResource } from "./UnifiedCatalogue.js"

/*
 * Unified lists no path names, read from a list that a query parameter narrows to them:
 * Thinkific has no `/users/{id}/enrollments`, but `/enrollments?query[user_id]=` is a user's
 * assignments, and `query[completed]=true` makes the same list their completions.
 */

/** `query[user_id]` and `filter[user_id]` name `user_id`. */
const innerName = (name: string) => compactName(name.match(/\[([^\]]+)\]$/)?.[1] ?? name)

const COMPLETED = new Set(["completed", "iscompleted", "completedonly", "onlycompleted"])

/** Operations a resource's records may be read from: lists of its model, or of assignments for completions. */
const sourcesOf = (resource: UnifiedResource, matches: ReadonlyArray<OperationMatch>) =>
  matches.filter((match) =>
    match.kind === "list" && match.filters === undefined &&
    (match.resource.model === resource.model || (resource.model.name === "completion" && match.resource.model.name === "assignment"))
  )

export const deriveFilteredMatches = (matches: ReadonlyArray<OperationMatch>, category: Category): ReadonlyArray<OperationMatch> => {
  const drafted = new Set(matches.map((match) => match.actionId))
  const derived: Array<OperationMatch> = []
  for (const resource of UNIFIED_CATALOGUE[category]) {
    if (resource.list === undefined || drafted.has(resource.list)) continue
    for (const source of sourcesOf(resource, matches)) {
      const query = source.operation.parameters.filter((parameter) => parameter.in === "query")
      const filters: Array<{ readonly name: string; readonly value: string }> = []
      if (resource.parent !== undefined && source.resource.parent === undefined) {
        const wanted = new Set(resource.parent.flatMap((noun) => [compactName(`${noun}_id`), compactName(`${noun}_uuid`)]))
        const parent = query.find((parameter) => wanted.has(innerName(parameter.name)))
        if (parent === undefined) continue
        filters.push({ name: parent.name, value: "$.inputs.id" })
      } else if ((resource.parent === undefined) !== (source.resource.parent === undefined)) {
        continue
      }
      if (resource.model !== source.resource.model) {
        const completed = query.find((parameter) => COMPLETED.has(innerName(parameter.name)))
        if (completed === undefined) continue
        filters.push({ name: completed.name, value: "true" })
      }
      if (filters.length === 0) continue
      const how = filters.map((filter) => `${filter.name}=${filter.value === "$.inputs.id" ? "<id>" : filter.value}`).join("&")
      derived.push({
        ...source,
        resource,
        actionId: resource.list,
        filters,
        doubt: `no operation reads these records by path: drafted from ${source.operation.method.toUpperCase()} ${source.operation.path}?${how}`
      })
      drafted.add(resource.list)
      break
    }
  }
  return derived
}
