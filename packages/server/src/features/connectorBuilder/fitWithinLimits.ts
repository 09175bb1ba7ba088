import { defaultParseLimits, parseConnector } from "@switchyard/engine"
import { Either } from "effect"
import type { ApiOperation } from "./ApiModel.js"
import type { DraftedAction } from "./draftActions.js"

/*
 * A large API can make more RPC actions than one connector may hold (500 actions, 512 KiB,
 * 5,000 expressions): the least useful go first (deprecated operations, then deletes, then
 * other writes, reads last) until the parser takes the draft; the caller names them.
 */

/** Higher is dropped first. */
const dropRank = (operation: ApiOperation) =>
  (operation.deprecated ? 10 : 0) + (operation.method === "get" ? 0 : operation.method === "delete" ? 3 : 2)

/** Whether the parser refused the draft for its size alone (too many actions, bytes or expressions). */
const overLimits = (verdict: ReturnType<typeof parseConnector>) =>
  Either.isLeft(verdict) &&
  verdict.left.issues.some((issue) => /\((maxBytes|maxActions|maxExpressions|maxExpressionChars|maxNodes|maxExpandedChars)\)/.test(issue.message))

/**
 * The draft `render` writes with as many of `rpcActions` as fit beside `fixedActions` other
 * actions; `verdict` is the parser's word on the text returned.
 */
export const fitWithinLimits = (
  rpcActions: ReadonlyArray<DraftedAction>,
  fixedActions: number,
  render: (kept: ReadonlyArray<DraftedAction>, left: ReadonlyArray<DraftedAction>) => string
) => {
  const dropOrder = [...rpcActions].sort((a, b) => dropRank(b.operation) - dropRank(a.operation))
  let left: ReadonlyArray<DraftedAction> = []
  let kept = rpcActions
  let yaml = render(kept, left)
  let verdict = parseConnector(yaml)
  for (let attempt = 0; attempt < 10 && overLimits(verdict); attempt++) {
    const bytes = Buffer.byteLength(yaml, "utf8")
    const perAction = bytes / Math.max(1, fixedActions + kept.length)
    const overBytes = Math.ceil((bytes - defaultParseLimits.maxBytes * 0.97) / perAction)
    const overCount = fixedActions + kept.length - defaultParseLimits.maxActions
    const drop = Math.max(Math.ceil(kept.length / 10), overCount, overBytes, 1)
    left = dropOrder.slice(0, left.length + drop)
    const dropped = new Set(left)
    kept = rpcActions.filter((action) => !dropped.has(action))
    yaml = render(kept, left)
    verdict = parseConnector(yaml)
  }
  return { yaml, kept, left, verdict }
}
