import { Api, unifiedOperationOf } from "@switchyard/api"
import { Option } from "effect"

/*
 * Where a unified call's ids come from: the records of a list answered before it, as a user's
 * code would find them. `/unified/hris/employees/:id/time_off/:subResourceId` takes a time-off
 * request from an employee's time-off list, and that employee; `/unified/lms/courses/:id` a
 * course of `/unified/lms/courses`, or, where that list is not served, of a list of the same
 * records under another one (`/unified/lms/assignments/:id` from `/users/:id/assignments`).
 */

/** The records a list answered (their ids), and the path parameters it was called with. */
export interface ListedRecords {
  readonly params: Readonly<Record<string, string>>
  readonly ids: ReadonlyArray<string>
}

export interface PathFromLists {
  readonly params: Readonly<Record<string, string>>
  /** The lists the ids came from (none for a path without ids). */
  readonly from: ReadonlyArray<string>
}

/** The unified list serving each collection path (`/unified/hris/employees/:id/time_off` → its action id). */
const listByPath: ReadonlyMap<string, string> = new Map(
  Object.values(Api.groups).flatMap((group) =>
    Object.values(group.endpoints).flatMap((endpoint) =>
      Option.toArray(unifiedOperationOf(endpoint)).flatMap((operation) =>
        operation.kind === "list" ? [[endpoint.path, operation.actionId] as const] : []
      )
    )
  )
)

/**
 * Collections holding the same records under two names: the reference answers its application stages
 * with interview stage records (`ats_list_application_stages` is `InterviewStagesPaginated`), and a
 * provider keeping stages per job lists them only under `/jobs/:id/application_stages`.
 */
const SAME_RECORDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  "/interview_stages": ["/interview_stages", "/application_stages"],
  "/application_stages": ["/application_stages", "/interview_stages"]
}

/** The answered list whose records a collection path holds: its own, else one of the same records elsewhere. */
const listOf = (collectionPath: string, listed: (listActionId: string) => ListedRecords | undefined) => {
  const answered = (actionId: string | undefined) => actionId !== undefined && (listed(actionId)?.ids.length ?? 0) > 0
  const own = listByPath.get(collectionPath)
  if (answered(own)) return own
  const collection = collectionPath.slice(collectionPath.lastIndexOf("/"))
  for (const name of SAME_RECORDS[collection] ?? [collection]) {
    for (const [path, actionId] of listByPath) {
      if (path !== collectionPath && path.endsWith(name) && answered(actionId)) return actionId
    }
  }
  return undefined
}

/**
 * The path parameters of a unified operation at `path`, from the lists answered so far;
 * undefined when no answered list has the records its ids name.
 */
export const pathFromLists = (
  path: string,
  listed: (listActionId: string) => ListedRecords | undefined
): PathFromLists | undefined => {
  const sub = /^(.*)\/:subResourceId(?:\/|$)/.exec(path)
  if (sub !== null) {
    const list = listOf(sub[1]!, listed)
    const under = list === undefined ? undefined : listed(list)
    return under === undefined || list === undefined
      ? undefined
      : { params: { ...under.params, subResourceId: under.ids[0]! }, from: [list] }
  }
  const parent = /^(.*?)\/:id(?:\/|$)/.exec(path)
  if (parent === null) return { params: {}, from: [] }
  const list = listOf(parent[1]!, listed)
  const source = list === undefined ? undefined : listed(list)
  return source === undefined || list === undefined ? undefined : { params: { id: source.ids[0]! }, from: [list] }
}
