import type { ApiOperation } from "./ApiModel.js"
import { singularNoun } from "./names.js"
import { type Category, UNIFIED_CATALOGUE, type UnifiedResource } from "./UnifiedCatalogue.js"

/*
 * Which unified action a provider's GET operation could implement, read from its path:
 * the last literal segment names the resource (`/v1/employees` → employee), a parameter
 * after it makes it a get (`/employees/{id}`), and a literal before a parameter before it
 * names a parent (`/users/{id}/enrollments` → a user's assignments).
 */

export type ActionKind = "list" | "get"

export interface PathSegment {
  readonly text: string
  /** The literal part of the segment (`Employees('{id}')` → `Employees`); empty for a bare parameter. */
  readonly literal: string
  /** Parameter names in the segment (`{id}`, `:id`). */
  readonly parameters: ReadonlyArray<string>
}

/** Words after the resource noun that name a view of the same list (`/employees/directory`). */
const QUALIFIERS: ReadonlySet<string> = new Set([
  "directory",
  "list",
  "all",
  "index",
  "search",
  "summary",
  "overview",
  "detail",
  "export",
  "query",
  "active",
  "current",
  "basic",
  "full",
  "lite",
  "simple"
])

export const pathSegments = (path: string): ReadonlyArray<PathSegment> =>
  path.split("/").filter((segment) => segment !== "").map((text) => {
    const parameters = [...text.matchAll(/\{([^}]+)\}|^:([A-Za-z_][A-Za-z0-9_]*)$/g)].map((match) => match[1] ?? match[2]!)
    const literal = parameters.length === 0
      ? text.replace(/\.(json|xml)$/i, "")
      // `Employees('{id}')` names a resource; `id:{id}` or `{id}.json` is only a parameter
      : (text.match(/^[A-Za-z][A-Za-z0-9_-]*(?=\()/)?.[0] ?? "")
    return { text, literal, parameters }
  })

export interface PathShape {
  readonly kind: ActionKind
  /** The resource noun, singular snake_case. */
  readonly noun: string
  /** The noun with the literal segment before it, when there is one (`/time_off/requests` → `time_off_request`). */
  readonly compoundNoun: string | undefined
  readonly parentNoun: string | undefined
  /** The parameter naming the record (get), else undefined. */
  readonly recordParameter: string | undefined
  /** The parameter naming the parent record, when there is a parent. */
  readonly parentParameter: string | undefined
}

/** The resource a path reads and how, or undefined when it ends in no noun. */
export const pathShape = (path: string): PathShape | undefined => {
  const segments = pathSegments(path)
  let index = segments.length - 1
  // a parameter (or several, `/a/{x}/{y}` is rare) at the end makes it a get
  const trailing: Array<string> = []
  while (index >= 0 && segments[index]!.literal === "") {
    trailing.unshift(...segments[index]!.parameters)
    index--
  }
  if (index < 0) return undefined
  let nounSegment = segments[index]!
  // `/employees/directory`: the view's word is not the resource
  if (trailing.length === 0 && index > 0 && QUALIFIERS.has(singularNoun(nounSegment.literal)) && segments[index - 1]!.literal !== "" && segments[index - 1]!.parameters.length === 0) {
    index--
    nounSegment = segments[index]!
  }
  const own = nounSegment.parameters
  const recordParameter = trailing.length > 0 ? trailing[trailing.length - 1] : own.length > 0 ? own[own.length - 1] : undefined
  const kind: ActionKind = recordParameter === undefined ? "list" : "get"
  let parentNoun: string | undefined
  let parentParameter: string | undefined
  const before = segments[index - 1]
  if (before !== undefined && before.literal === "" && before.parameters.length > 0) {
    const parent = segments[index - 2]
    if (parent !== undefined && parent.literal !== "") {
      parentNoun = singularNoun(parent.literal)
      parentParameter = before.parameters[before.parameters.length - 1]
    }
  } else if (before !== undefined && before.literal !== "" && before.parameters.length > 0) {
    // OData-like `Users('{id}')/Enrollments`
    parentNoun = singularNoun(before.literal)
    parentParameter = before.parameters[before.parameters.length - 1]
  }
  const previous = segments[index - 1]
  const compoundNoun = previous !== undefined && previous.literal !== "" && previous.parameters.length === 0
    ? singularNoun(`${previous.literal}_${nounSegment.literal}`)
    : undefined
  return { kind, noun: singularNoun(nounSegment.literal), compoundNoun, parentNoun, recordParameter, parentParameter }
}

/**
 * 2: the noun is one of the resource's; 1: it is the resource's own name behind a short
 * prefix (`emp_employment`, `fo_company`; not a synonym, which would take `break_policy` for a
 * time off policy); 0: neither.
 */
const nounScore = (noun: string, nouns: ReadonlyArray<string>): number => {
  if (nouns.includes(noun)) return 2
  // only behind a short prefix (`Emp`, `Per`, `FO`): `contractor_payment_group` is no group
  const prefix = noun.endsWith(`_${nouns[0]}`) ? noun.slice(0, -(nouns[0]!.length + 1)) : undefined
  return prefix !== undefined && /^[a-z]{1,4}$/.test(prefix) ? 1 : 0
}

/** Path words naming what a whole account works in (`/companies/{company_id}/employees`). */
export const ACCOUNT_SCOPES: ReadonlySet<string> = new Set([
  "company",
  "organization",
  "organisation",
  "org",
  "tenant",
  "account",
  "workspace",
  "site",
  "client",
  "customer",
  "legal_entity",
  "employer",
  "business",
  "environment",
  "instance",
  "realm",
  "subdomain",
  "domain",
  "partner"
])

/** Path words of logs and reports: `/org/activities/assignments` is a log of assignments, not the resource. */
const RECORD_OF_EVENTS: ReadonlySet<string> = new Set(["activity", "log", "audit", "audit_log", "event_log", "report", "export", "changelog"])

/** Path words that put an operation in one category's area (`/applicant_tracking/jobs` are not HR jobs). */
const AREAS: Readonly<Record<Category, ReadonlyArray<string>>> = {
  hris: ["hris", "hr", "hcm", "personnel", "core_hr"],
  ats: ["ats", "applicant_tracking", "recruiting", "recruitment", "hiring", "talent_acquisition", "careers", "job_board"],
  lms: ["lms", "learning", "elearning", "e_learning", "academy"]
}

/** The path's literal words, singular snake_case. */
const pathWords = (path: string): ReadonlyArray<string> =>
  pathSegments(path).map((segment) => singularNoun(segment.literal)).filter((word) => word !== "")

/** Whether the path's literal words name another category's area and not this one's. */
const elsewhere = (path: string, category: Category): boolean => {
  const words = new Set(pathWords(path))
  if (AREAS[category].some((word) => words.has(word))) return false
  return (Object.keys(AREAS) as Array<Category>).some((other) => other !== category && AREAS[other].some((word) => words.has(word)))
}

/** Every noun a category's resources (and their parents) are known by. */
const KNOWN_NOUNS: Readonly<Record<Category, ReadonlySet<string>>> = {
  hris: new Set(UNIFIED_CATALOGUE.hris.flatMap((resource) => [...resource.nouns, ...(resource.parent ?? [])])),
  ats: new Set(UNIFIED_CATALOGUE.ats.flatMap((resource) => [...resource.nouns, ...(resource.parent ?? [])])),
  lms: new Set(UNIFIED_CATALOGUE.lms.flatMap((resource) => [...resource.nouns, ...(resource.parent ?? [])]))
}
const knownNouns = (category: Category): ReadonlySet<string> => KNOWN_NOUNS[category]

export interface OperationMatch {
  readonly operation: ApiOperation
  readonly resource: UnifiedResource
  readonly kind: ActionKind
  readonly actionId: string
  readonly shape: PathShape
  /** Higher is a better match; compares candidates for the same action id. */
  readonly score: number
  /** Why the match is uncertain, when it is. */
  readonly doubt: string | undefined
  /** The path's noun is one of the model's (not only a word ending with its name). */
  readonly exactNoun: boolean
  /** Query arguments that narrow the operation to this action's records (`query[user_id]` for a user's). */
  readonly filters?: ReadonlyArray<{ readonly name: string; readonly value: string }>
}

/** The best unified action for `operation` in `category`, if any. Only GET operations match. */
export const matchOperation = (operation: ApiOperation, category: Category): OperationMatch | undefined => {
  if (operation.method !== "get") return undefined
  const shape = pathShape(operation.path)
  if (shape === undefined || shape.noun === "" || elsewhere(operation.path, category)) return undefined
  if (pathWords(operation.path).some((word) => word !== shape.noun && RECORD_OF_EVENTS.has(word))) return undefined
  let best: OperationMatch | undefined
  for (const resource of UNIFIED_CATALOGUE[category]) {
    const actionId = shape.kind === "list" ? resource.list : resource.get
    if (actionId === undefined) continue
    // `/time_off/requests` is a time off request before it is a request
    const compound = shape.compoundNoun === undefined ? 0 : nounScore(shape.compoundNoun, resource.nouns)
    const inContext = resource.contextNouns?.includes(shape.noun) === true &&
      pathWords(operation.path).some((word) => word !== shape.noun && resource.nouns.includes(word))
    const noun = compound === 2 ? 3 : inContext ? 2 : nounScore(shape.noun, resource.nouns)
    if (noun === 0) continue
    let score: number
    let doubt: string | undefined = noun === 1 ? `the path's noun "${shape.noun}" only ends with the model's name` : undefined
    if (resource.parent !== undefined) {
      const parent = shape.parentNoun === undefined ? 0 : nounScore(shape.parentNoun, resource.parent)
      if (parent === 0) continue
      score = 10 + noun * 2 + parent
    } else {
      score = noun * 2
      if (shape.parentNoun !== undefined) {
        // `/companies/{id}/employees` are the account's employees; `/chapters/{id}/contents`
        // or `/projects/{id}/tasks` are a subset, not the unified list
        if (!ACCOUNT_SCOPES.has(shape.parentNoun)) continue
        doubt ??= `the path reads it under ${shape.parentNoun}`
        score -= 1
      }
    }
    // `/docs/people/{id}` reads a person's documents: a known noun of another resource
    // before the path's own noun makes it that resource's
    const others = pathWords(operation.path).filter((word) =>
      word !== shape.noun && word !== shape.parentNoun && !resource.nouns.includes(word) && knownNouns(category).has(word)
    )
    if (others.length > 0 && resource.parent === undefined && shape.parentNoun === undefined) {
      score -= 4
      doubt ??= `the path also names ${others.join(", ")}`
    }
    // the model's first noun is its own name; later ones are synonyms
    if (resource.nouns[0] === shape.noun || resource.nouns[0] === shape.compoundNoun) score += 1
    if (operation.deprecated) score -= 3
    if (best === undefined || score > best.score) {
      best = { operation, resource, kind: shape.kind, actionId, shape, score, doubt, exactNoun: noun >= 2 }
    }
  }
  return best
}

/**
 * Matches for every operation in `category`, one per unified action id: where several
 * operations match one action, the best match (then the shortest path) wins and the others
 * are returned as `passedOver` with the winner's action id.
 */
export const matchOperations = (operations: ReadonlyArray<ApiOperation>, category: Category) => {
  const byAction = new Map<string, Array<OperationMatch>>()
  for (const operation of operations) {
    const match = matchOperation(operation, category)
    if (match === undefined) continue
    const list = byAction.get(match.actionId) ?? []
    list.push(match)
    byAction.set(match.actionId, list)
  }
  const chosen: Array<OperationMatch> = []
  const passedOver: Array<{ readonly operation: ApiOperation; readonly actionId: string; readonly chosen: ApiOperation }> = []
  for (const [actionId, matches] of byAction) {
    const sorted = [...matches].sort((a, b) => b.score - a.score || a.operation.path.length - b.operation.path.length)
    const [winner, ...rest] = sorted
    chosen.push(winner!)
    for (const other of rest) passedOver.push({ operation: other.operation, actionId, chosen: winner!.operation })
  }
  return { chosen, passedOver }
}

/**
 * How many unified actions of each category the document's GET operations match by one of
 * the models' nouns (a path that only ends with a model's name, `EducationMajorContent`,
 * does not count: it would put an HR document among the learning ones).
 */
export const categoryScores = (operations: ReadonlyArray<ApiOperation>): ReadonlyArray<readonly [Category, number]> =>
  (["hris", "ats", "lms"] as const).map((category) => {
    const actions = new Set<string>()
    for (const operation of operations) {
      const match = matchOperation(operation, category)
      if (match !== undefined && match.exactNoun) actions.add(match.actionId)
    }
    return [category, actions.size] as const
  })
