import type { CompiledExpressions } from "../compileConnectorExpressions.js"
import type { ActionDefinition } from "../ConnectorDefinition.js"
import { jexlAst } from "../ExpressionLanguage.js"
import type { CompiledExpression } from "../Expressions.js"
import { ActionDefinitionError } from "../RunErrors.js"

/* Which steps an action's expressions read: a read of a step the action lacks stops the plan. */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

type JexlNode = { readonly type: string; readonly [key: string]: unknown }

/** Step ids an expression reads through `steps.<id>` (JSONPath, interpolation or JEXL). */
export const stepReferences = (expression: CompiledExpression): Array<string> => {
  const found: Array<string> = []
  const fromPath = (path: ReadonlyArray<string>) => {
    if (path[0] === "$" && path[1] === "steps" && path.length > 2) found.push(path[2]!)
  }
  switch (expression.kind) {
    case "jsonpath":
      fromPath(expression.path)
      break
    case "interpolation":
      for (const part of expression.parts) if (typeof part !== "string") fromPath(part.path)
      break
    case "jexl": {
      const pending: Array<unknown> = [jexlAst(expression.expression)]
      while (pending.length > 0) {
        const node = pending.pop()
        if (Array.isArray(node)) pending.push(...node)
        else if (isRecord(node)) {
          const jexl = node as JexlNode
          if (jexl.type === "Identifier" && isRecord(jexl.from)) {
            const from = jexl.from as JexlNode
            const rootIsSteps = from.type === "Identifier" && from.value === "steps" &&
              (from.from === undefined || (isRecord(from.from) && (from.from as JexlNode).value === "$" && (from.from as JexlNode).from === undefined))
            if (rootIsSteps && typeof jexl.value === "string") found.push(jexl.value)
          }
          for (const value of Object.values(node)) if (typeof value === "object") pending.push(value)
        }
      }
      break
    }
    case "literal":
      break
  }
  return found
}

export const checkStepReferences = (
  action: ActionDefinition,
  actionPath: string,
  compiled: CompiledExpressions
): void => {
  const ids = new Set(action.steps.map((step) => step.stepId))
  for (const [path, expression] of compiled) {
    if (!path.startsWith(`${actionPath}.`)) continue
    for (const id of stepReferences(expression)) {
      if (!ids.has(id)) {
        throw new ActionDefinitionError({
          message: `${path} reads steps.${id}, but action "${action.actionId}" has no step "${id}"`,
          actionId: action.actionId,
          path
        })
      }
    }
  }
  action.steps.forEach((step, index) => {
    if (step.stepFunction.functionName !== "group_data") return
    for (const id of step.stepFunction.parameters.stepsDataToGroup) {
      if (!ids.has(id)) {
        throw new ActionDefinitionError({
          message: `step "${step.stepId}" groups step "${id}", which action "${action.actionId}" does not define`,
          actionId: action.actionId,
          stepId: step.stepId,
          path: `${actionPath}.steps[${index}].stepFunction.parameters.stepsDataToGroup`
        })
      }
    }
  })
}
