import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import type { ActionDefinition, ActionInput } from "@switchyard/engine"

/*
 * MCP tool descriptors for connector actions: the name `<connector_key>_<actionId>`, the
 * action's label and description, and a JSON Schema built from its declared inputs the way
 * the engine checks them (`validateInputs`): scalars by type, enums by `oneOf.values`,
 * `array` inputs as lists, required ones listed. Undeclared inputs still reach the action
 * (connectors read e.g. `inputs.body` undeclared), so the schema stays open.
 */

type JsonSchema = Record<string, unknown>

/** Action types that only read: annotated `readOnlyHint` (the same set the RPC treats as reads). */
const readOnlyTypes = new Set<string>(["list", "get"])

/** Plumbing for credentials and webhooks, not something an agent calls. */
const hiddenTypes = new Set<string>(["refresh_token", "event"])

export const toolName = (connectorKey: string, actionId: string) => `${connectorKey}_${actionId}`

export const isExposed = (action: Pick<ActionDefinition, "actionType">) => !hiddenTypes.has(action.actionType)

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const looksLikeInput = (value: unknown): value is ActionInput =>
  isRecord(value) && typeof value.name === "string" && typeof value.type === "string"

/**
 * `properties` of an object input, when it describes them: a list of nested inputs (the
 * inputs' own shape) or a JSON Schema `properties` record. Anything else says nothing.
 */
const objectShape = (properties: unknown): JsonSchema => {
  if (Array.isArray(properties) && properties.length > 0 && properties.every(looksLikeInput)) {
    return objectSchema(properties)
  }
  if (isRecord(properties) && Object.keys(properties).length > 0 && Object.values(properties).every(isRecord)) {
    return { properties }
  }
  return {}
}

const scalarSchema = (input: ActionInput): JsonSchema => {
  switch (input.type) {
    case "string":
      return { type: "string" }
    case "number":
      return { type: "number" }
    case "boolean":
      return { type: "boolean" }
    case "datetime_string":
      // the engine takes an ISO 8601 date-time or a bare date
      return { type: "string", anyOf: [{ format: "date-time" }, { format: "date" }] }
    case "object":
      return { type: "object", ...objectShape(input.properties) }
    case "enum": {
      const values = input.oneOf?.values ?? []
      return values.length > 0 ? { type: "string", enum: [...values] } : { type: "string" }
    }
  }
}

const inputSchema = (input: ActionInput): JsonSchema => {
  const schema = input.array === true ? { type: "array", items: scalarSchema(input) } : scalarSchema(input)
  return input.description === undefined ? schema : { ...schema, description: input.description }
}

function objectSchema(inputs: ReadonlyArray<ActionInput>): JsonSchema {
  const properties = Object.fromEntries(inputs.map((input) => [input.name, inputSchema(input)]))
  const required = inputs.filter((input) => input.required === true).map((input) => input.name)
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) }
}

/** The JSON Schema of an action's inputs, as an MCP tool's `inputSchema`. */
export const toolInputSchema = (action: Pick<ActionDefinition, "inputs">): Tool["inputSchema"] =>
  objectSchema(action.inputs ?? []) as Tool["inputSchema"]

const describe = (action: ActionDefinition): string =>
  [action.description ?? action.label, action.details].filter((text) => text !== undefined && text !== "").join("\n\n")

/** Built once per action: a connector version's definitions are immutable and shared. */
const toolsByAction = new WeakMap<ActionDefinition, Map<string, Tool>>()

/** The MCP tool for one action of the connector `connectorKey`. */
export const toolFor = (connectorKey: string, action: ActionDefinition): Tool => {
  let byKey = toolsByAction.get(action)
  if (byKey === undefined) toolsByAction.set(action, byKey = new Map())
  const cached = byKey.get(connectorKey)
  if (cached !== undefined) return cached
  const tool = buildTool(connectorKey, action)
  byKey.set(connectorKey, tool)
  return tool
}

const buildTool = (connectorKey: string, action: ActionDefinition): Tool => {
  const readOnly = readOnlyTypes.has(action.actionType)
  return {
    name: toolName(connectorKey, action.actionId),
    title: action.label,
    description: describe(action),
    inputSchema: toolInputSchema(action),
    annotations: {
      title: action.label,
      readOnlyHint: readOnly,
      ...(readOnly ? {} : { destructiveHint: action.actionType === "delete" || action.actionType === "update" })
    }
  }
}
