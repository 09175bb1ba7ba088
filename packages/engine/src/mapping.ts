import type { CompiledExpressions } from "./compileConnectorExpressions.js"
import type { FieldConfig } from "./ConnectorDefinition.js"
import { type Coercion, coercionFor } from "./coerce.js"
import { childPath, compileEvaluator, type Evaluator, isTruthy, lookupExpression, RecordScope, type Scope } from "./evaluate.js"

/*
 * Field mapping (`map_fields` v2 and action `fieldConfigs`), compiled once per connector
 * version into closures and applied per record with one reusable scope: no expression is
 * parsed, and no context object is copied, per record.
 */

/** The normalized value of an enum no matcher claimed (the unified API's own name for it). */
export const UNMAPPED_ENUM_VALUE = "unmapped_value"

interface EnumMatcherPlan {
  readonly match: Evaluator
  readonly value: unknown
}

export interface FieldPlan {
  readonly targetFieldKey: string
  /** `targetFieldKey` split on dots: `a.b` writes `{a: {b}}`. */
  readonly target: ReadonlyArray<string>
  readonly read: Evaluator
  readonly coerce: Coercion
  readonly array: boolean
  /** `undefined`: not an enum; `"passthrough"`: a named built-in matcher (value = source). */
  readonly enumMatchers: ReadonlyArray<EnumMatcherPlan> | "passthrough" | undefined
  readonly isEnum: boolean
}

export interface MappingPlan {
  readonly fields: ReadonlyArray<FieldPlan>
  /** Names that read the record itself (`$.fetch_employees.email`): source step id, own step id. */
  readonly aliases: ReadonlyArray<string>
}

/**
 * Plans the fields at `path` (`actions[0].fieldConfigs` or
 * `actions[0].steps[1].stepFunction.parameters.fields`). A field without `expression`
 * reads the record's own `targetFieldKey`.
 */
export const compileFields = (
  fields: ReadonlyArray<FieldConfig>,
  path: string,
  compiled: CompiledExpressions
): Array<FieldPlan> =>
  fields.map((field, index) => {
    const fieldPath = `${path}[${index}]`
    const expressionPath = childPath(fieldPath, "expression")
    const read: Evaluator = field.expression === undefined
      ? ((key: string) => (scope: Scope) => (scope as RecordScope).currentField(key))(field.targetFieldKey)
      : compileEvaluator(lookupExpression(field.expression, expressionPath, compiled), { path: expressionPath })
    const isEnum = field.type === "enum" || field.enumMapper !== undefined
    let enumMatchers: FieldPlan["enumMatchers"]
    const matcher = field.enumMapper?.matcher
    if (typeof matcher === "string") enumMatchers = "passthrough"
    else if (matcher !== undefined) {
      enumMatchers = matcher.map((entry, position) => {
        const matchPath = `${fieldPath}.enumMapper.matcher[${position}].matchExpression`
        return {
          match: compileEvaluator(lookupExpression(entry.matchExpression, matchPath, compiled), { path: matchPath }),
          value: entry.value
        }
      })
    }
    return {
      targetFieldKey: field.targetFieldKey,
      target: field.targetFieldKey.split("."),
      read,
      coerce: coercionFor(isEnum ? undefined : field.type),
      array: field.array === true,
      enumMatchers,
      isEnum
    }
  })

const enumValue = (field: FieldPlan, source: unknown, scope: Scope): unknown => {
  if (source === undefined || source === null) return source
  const matchers = field.enumMatchers
  let value: unknown = UNMAPPED_ENUM_VALUE
  if (matchers === "passthrough" || matchers === undefined) value = typeof source === "object" ? UNMAPPED_ENUM_VALUE : String(source)
  else {
    for (let i = 0; i < matchers.length; i++) {
      if (isTruthy(matchers[i]!.match(scope))) {
        value = matchers[i]!.value
        break
      }
    }
  }
  return { value, source_value: source }
}

const fieldValue = (field: FieldPlan, scope: Scope): unknown => {
  const raw = field.read(scope)
  if (raw === undefined) return undefined
  if (field.isEnum) {
    if (field.array) {
      if (raw === null) return null
      const items = Array.isArray(raw) ? raw : [raw]
      return items.map((item) => enumValue(field, item, scope))
    }
    return enumValue(field, raw, scope)
  }
  if (field.array) {
    if (raw === null) return null
    const items = Array.isArray(raw) ? raw : [raw]
    const out = new Array<unknown>(items.length)
    for (let i = 0; i < items.length; i++) out[i] = field.coerce(items[i])
    return out
  }
  return field.coerce(raw)
}

const assign = (out: Record<string, unknown>, target: ReadonlyArray<string>, value: unknown) => {
  if (target.length === 1) {
    out[target[0]!] = value
    return
  }
  let node = out
  for (let i = 0; i < target.length - 1; i++) {
    const key = target[i]!
    const next = node[key]
    if (typeof next === "object" && next !== null && !Array.isArray(next)) node = next as Record<string, unknown>
    else {
      const created: Record<string, unknown> = {}
      node[key] = created
      node = created
    }
  }
  node[target[target.length - 1]!] = value
}

/** Maps one record; `scope` must already be `set` to it. Fields evaluating to `undefined` are left out. */
export const mapRecord = (fields: ReadonlyArray<FieldPlan>, scope: RecordScope): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!
    const value = fieldValue(field, scope)
    if (value !== undefined) assign(out, field.target, value)
  }
  return out
}

/** Maps `records[from..to)` into `out` with one reused scope. */
export const mapRange = (
  fields: ReadonlyArray<FieldPlan>,
  scope: RecordScope,
  records: ReadonlyArray<unknown>,
  out: Array<unknown>,
  from: number,
  to: number
): void => {
  for (let i = from; i < to; i++) out[i] = mapRecord(fields, scope.set(records[i]))
}

/** Maps a single record or a list with a fresh scope over `base` (convenience for callers and tests). */
export const applyMapping = (plan: MappingPlan, data: unknown, base: Scope): unknown => {
  const scope = new RecordScope(base, plan.aliases)
  if (Array.isArray(data)) {
    const out = new Array<unknown>(data.length)
    mapRange(plan.fields, scope, data, out, 0, data.length)
    return out
  }
  if (data === undefined || data === null) return data
  return mapRecord(plan.fields, scope.set(data))
}
