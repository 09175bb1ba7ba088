import { defaultParseLimits } from "@switchyard/engine"
import { Either } from "effect"
import type { ApiOperation } from "./ApiModel.js"
import { accountParameters } from "./accountParameters.js"
import { type ActionContext, draftRpcAction, draftUnifiedAction, type DraftedAction, rpcActionId } from "./draftActions.js"
import { draftAuthentication } from "./draftAuthentication.js"
import { type ConfigField, draftBaseUrl } from "./draftBaseUrl.js"
import type { DraftRefusal } from "./DraftRefusal.js"
import { commented, Flow, renderYaml } from "./DraftYaml.js"
import { fitWithinLimits } from "./fitWithinLimits.js"
import { type LoadedApiDocument, loadApiDocument } from "./loadApiDocument.js"
import { deriveFilteredMatches } from "./deriveFilteredMatches.js"
import { categoryScores, matchOperations } from "./matchOperation.js"
import { connectorKeyFor } from "./connectorKeyFor.js"
import { readApiModel } from "./readApiModel.js"
import { CATEGORIES, type Category, UNIFIED_CATALOGUE } from "./UnifiedCatalogue.js"

/*
 * A starting connector from a provider's OpenAPI (3.x) or Swagger (2.0) document: its
 * authentication, base URL, one unified action per operation that matches a model of the
 * category, and an RPC action for every other operation. Pure: the document in, the YAML
 * and what to review out. What the builder could not decide is written into the YAML as
 * `# review:` comments and returned as review items.
 */

export interface DraftOptions {
  /** The category to match against; inferred from the paths when absent. */
  readonly category?: Category | undefined
  /** The connector key; made from the document's title when absent. */
  readonly key?: string | undefined
  /** Which other operations become RPC actions: all (the default), reads (GET and HEAD) or none. */
  readonly rpc?: RpcChoice | undefined
}

export type RpcChoice = "all" | "reads" | "none"

export const RPC_CHOICES: ReadonlyArray<RpcChoice> = ["all", "reads", "none"]

export interface ReviewItem {
  /** An action id, `authentication`, `baseUrl` or `document`. */
  readonly where: string
  readonly message: string
}

export interface DraftSummary {
  readonly category: Category
  /** How the category was chosen, in words. */
  readonly categoryReason: string
  readonly unifiedActions: number
  readonly rpcActions: number
  readonly fieldsMapped: number
  readonly fieldsForReview: number
  readonly fieldsUnmapped: number
  readonly authMethods: number
  readonly schemesNotUnderstood: number
}

export interface Draft {
  readonly yaml: string
  readonly review: ReadonlyArray<ReviewItem>
  readonly summary: DraftSummary
}

export const DRAFT_VERSION = "0.1.0"

/** Operations the connector format cannot send (OPTIONS, TRACE) are named in a comment instead. */
const SENDABLE: ReadonlySet<string> = new Set(["get", "post", "put", "patch", "delete", "head"])

const chooseCategory = (operations: ReadonlyArray<ApiOperation>, given: Category | undefined) => {
  const scores = categoryScores(operations)
  const described = scores.map(([category, count]) => `${count} ${category.toUpperCase()}`).join(", ")
  if (given !== undefined) return { category: given, reason: `given (actions matching each category's models: ${described})` }
  const [best] = [...scores].sort((a, b) => b[1] - a[1] || CATEGORIES.indexOf(a[0]) - CATEGORIES.indexOf(b[0]))
  const [category, count] = best!
  return count === 0
    ? { category, reason: `no path names one of the categories' models exactly; ${category} by default (give --category)` }
    : { category, reason: `inferred: the paths match ${described} unified actions (give --category to choose)` }
}

/** Catalogue order: a category's resources as listed, each list before its get. */
const catalogueOrder = (category: Category) => {
  const order = new Map<string, number>()
  for (const resource of UNIFIED_CATALOGUE[category]) {
    for (const id of [resource.list, resource.get]) if (id !== undefined && !order.has(id)) order.set(id, order.size)
  }
  return order
}

const firstParagraph = (text: string | undefined) => {
  if (text === undefined) return undefined
  const paragraph = text.split(/\n\s*\n/)[0]!.replace(/<[^>]+>/g, " ").replace(/[#*`]/g, "").replace(/\s+/g, " ").trim()
  if (paragraph === "") return undefined
  return paragraph.length > 300 ? `${paragraph.slice(0, 297)}...` : paragraph
}

export const draftConnector = (loaded: LoadedApiDocument, options: DraftOptions = {}): Draft => {
  const model = readApiModel(loaded)
  const { category, reason } = chooseCategory(model.operations, options.category)
  const review: Array<ReviewItem> = []
  const { chosen, passedOver } = matchOperations(model.operations, category)
  const order = catalogueOrder(category)
  const matches = [...chosen, ...deriveFilteredMatches(chosen, category)]
    .sort((a, b) => (order.get(a.actionId) ?? 0) - (order.get(b.actionId) ?? 0))
  const matched = new Set(matches.map((match) => match.operation))

  const base = draftBaseUrl(model)
  review.push(...base.review.map((message) => ({ where: "baseUrl", message })))

  // the action ids of every operation, fixed before any action is written (the test action names one)
  const usedIds = new Set(matches.map((match) => match.actionId))
  const rpc: Array<{ readonly operation: ApiOperation; readonly actionId: string; readonly note: string | undefined }> = []
  const unsendable: Array<ApiOperation> = []
  const unwanted: Array<ApiOperation> = []
  const rpcChoice = options.rpc ?? "all"
  for (const operation of model.operations) {
    if (matched.has(operation)) continue
    if (!SENDABLE.has(operation.method)) {
      unsendable.push(operation)
      continue
    }
    if (rpcChoice === "none" || (rpcChoice === "reads" && operation.method !== "get" && operation.method !== "head")) {
      unwanted.push(operation)
      continue
    }
    let actionId = rpcActionId(operation)
    for (let n = 2; usedIds.has(actionId); n++) actionId = `${rpcActionId(operation)}_${n}`
    usedIds.add(actionId)
    const over = passedOver.find((entry) => entry.operation === operation)
    rpc.push({
      operation,
      actionId,
      note: over === undefined
        ? undefined
        : `this operation also matches ${over.actionId}, which is drafted from ${over.chosen.method.toUpperCase()} ${over.chosen.path}`
    })
  }
  const hasRequiredInputs = (operation: ApiOperation) =>
    operation.parameters.some((parameter) => parameter.required && parameter.in !== "header")
  const testAction = matches.find((match) => match.kind === "list" && match.resource.parent === undefined && !hasRequiredInputs(match.operation))?.actionId ??
    matches.find((match) => match.kind === "list" && match.resource.parent === undefined)?.actionId ??
    rpc.find((entry) => entry.operation.method === "get" && !hasRequiredInputs(entry.operation))?.actionId

  const authentication = draftAuthentication(model, base, testAction)
  for (const message of authentication.review) review.push({ where: "authentication", message })
  for (const drafted of authentication.methods) {
    for (const line of drafted.comments) if (line.startsWith("review: ")) review.push({ where: "authentication", message: `${drafted.name}: ${line.slice(8)}` })
  }
  for (const message of authentication.notUnderstood) review.push({ where: "authentication", message })
  for (const action of authentication.actions) {
    // a refresh action's id must not be taken by an operation
    const clash = rpc.findIndex((entry) => entry.actionId === action.actionId)
    if (clash >= 0) rpc[clash] = { ...rpc[clash]!, actionId: `${rpc[clash]!.actionId}_operation` }
  }

  const account = accountParameters(model)
  for (const message of account.review) review.push({ where: "actions", message })
  const context: ActionContext = {
    model,
    category,
    credentialArgs: authentication.requestArgs,
    scopeFields: new Map<string, ConfigField>(),
    methods: authentication.methods.map((drafted) => ({ name: drafted.name, scheme: drafted.scheme })),
    accountParameters: account
  }
  const unified: Array<DraftedAction> = matches.map((match) => draftUnifiedAction(context, match))
  const rpcActions: Array<DraftedAction> = rpc.map((entry) => draftRpcAction(context, entry.operation, entry.actionId, entry.note))
  for (const action of [...unified, ...rpcActions]) {
    for (const message of action.review) review.push({ where: action.actionId, message })
  }

  // configuration every method needs: server variables, then path parameters that scope the API
  const sharedFields = [...base.configFields, ...account.configFields, ...context.scopeFields.values()]
  const methods = authentication.methods.map((drafted) => {
    const own = (drafted.method.configFields as ReadonlyArray<ConfigField> | undefined) ?? []
    const keys = new Set(own.map((field) => field.key))
    const configFields = [...sharedFields.filter((field) => !keys.has(field.key as string)), ...own]
    const method = { ...drafted.method, ...(configFields.length === 0 ? {} : { configFields }) }
    return commented({ [drafted.name]: method }, { before: drafted.comments })
  })
  if (methods.length === 0 && sharedFields.length > 0) {
    methods.push(commented({
      configuration: {
        type: "custom",
        label: "Configuration",
        authorization: { type: "none" },
        configFields: sharedFields,
        ...(testAction === undefined ? {} : { testActions: [{ action: testAction }] })
      }
    }, { before: ["review: no authentication method could be drafted; this one only holds the configuration fields"] }))
  }

  const refProblems = [...loaded.notes, ...model.resolver.problems()]
  for (const message of refProblems) review.push({ where: "document", message })

  const key = options.key ?? connectorKeyFor(model.title, model.servers[0]?.url)
  const description = firstParagraph(model.description)
  const header = [
    `Draft connector for ${model.title}${model.apiVersion === undefined ? "" : ` (API version ${model.apiVersion})`}, written by \`switchyard connectors draft\``,
    `from its ${loaded.dialect === "swagger2" ? "Swagger" : "OpenAPI"} ${loaded.specVersion} document. Category ${category}: ${reason}.`,
    `Lines marked "review:" are the builder's guesses or questions; check them, and the mappings, before registering it.`,
    ...refProblems.map((problem) => `review: ${problem}`)
  ]
  const render = (kept: ReadonlyArray<DraftedAction>, left: ReadonlyArray<DraftedAction>) =>
    renderYaml({
      StackOne: "1.0.0",
      // the document starts with the format's version line; what the builder has to say comes next
      info: commented({
        title: model.title,
        key,
        version: DRAFT_VERSION,
        description: description ?? `${model.title}, drafted from its ${loaded.dialect === "swagger2" ? "Swagger" : "OpenAPI"} document`,
        categories: new Flow([category])
      }, { before: header }),
      baseUrl: commented(base.baseUrl, { after: base.review.map((line) => `review: ${line}`) }),
      ...(model.documentationUrl === undefined ? {} : { resources: model.documentationUrl }),
      authentication: commented(methods, {
        before: base.comments,
        after: [
          ...authentication.notUnderstood,
          ...authentication.review.map((line) => `review: ${line}`)
        ]
      }),
      actions: commented(
        [...unified.map((action) => action.value), ...authentication.actions, ...kept.map((action) => action.value)],
        {
          before: [
            `${unified.length} unified action${unified.length === 1 ? "" : "s"} (${category}), then ${kept.length} RPC action${kept.length === 1 ? "" : "s"} for the other operations`,
            ...account.review
          ],
          after: [
            ...(unwanted.length === 0 ? [] : [`not drafted (--rpc ${rpcChoice}): ${unwanted.length} other operation${unwanted.length === 1 ? "" : "s"}`]),
            ...unsendable.map((operation) => `not drafted: ${operation.method.toUpperCase()} ${operation.path} (the connector format sends GET, POST, PUT, PATCH, DELETE and HEAD)`),
            ...(left.length === 0 ? [] : [
              `not drafted, to stay within what a connector may hold (${defaultParseLimits.maxActions} actions, ${defaultParseLimits.maxBytes / 1024} KiB), ${left.length} RPC actions:`,
              ...left.map((action) => `- ${action.operation.method.toUpperCase()} ${action.operation.path}`)
            ])
          ]
        }
      )
    })

  const { kept, left, verdict, yaml } = fitWithinLimits(rpcActions, unified.length + authentication.actions.length, render)
  if (left.length > 0) {
    review.push({ where: "actions", message: `${left.length} RPC actions were left out to stay within a connector's limits; the comment at the end of the actions names them` })
  }
  if (Either.isLeft(verdict)) {
    // never expected: said rather than hidden, so the draft is not taken for a finished one
    for (const issue of verdict.left.issues.slice(0, 10)) {
      review.push({ where: "document", message: `the draft does not parse: ${issue.path} ${issue.message}` })
    }
  }

  const summary: DraftSummary = {
    category,
    categoryReason: reason,
    unifiedActions: unified.length,
    rpcActions: kept.length,
    fieldsMapped: unified.reduce((sum, action) => sum + action.counts.fieldsMapped, 0),
    fieldsForReview: unified.reduce((sum, action) => sum + action.counts.fieldsForReview, 0),
    fieldsUnmapped: unified.reduce((sum, action) => sum + action.counts.fieldsUnmapped, 0),
    authMethods: methods.length,
    schemesNotUnderstood: authentication.notUnderstood.length
  }
  return { yaml, review, summary }
}

/** Loads `text` (JSON or YAML) and drafts from it, or says why the document is refused. */
export const draftConnectorFromText = (
  text: string,
  options: DraftOptions & { readonly maxBytes?: number } = {}
): Either.Either<Draft, DraftRefusal> =>
  Either.map(
    loadApiDocument(text, options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    (loaded) => draftConnector(loaded, options)
  )

/** Whether `key` may be a connector key (the format's `[a-z0-9_-]+`, at most 100 characters). */
export const isConnectorKey = (key: string) => /^[a-z0-9_-]{1,100}$/.test(key)

