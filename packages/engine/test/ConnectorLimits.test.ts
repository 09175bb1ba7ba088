import { describe, expect, it, vi } from "@effect/vitest"
import { Either } from "effect"
import { JSONPath } from "jsonpath-plus"
import {
  compileExpression,
  type ConnectorIssue,
  defaultParseLimits,
  expressionNesting,
  type ParseLimits,
  parseConnector
} from "../src/index.js"

/*
 * Hostile connector uploads (issue 10): each bound of ParseLimits refuses its input with
 * an issue naming the path and the limit, before the parser whose cost it protects runs.
 */

const { maxExpressionDepth, maxExpressionLength } = defaultParseLimits

/** A valid one-action connector whose `result.data` is `data`, plus any extra actions. */
const connector = (data: string, extraActions = 0) =>
  [
    "StackOne: 1.0.0",
    "info:",
    "  title: Hostile",
    "  key: hostile",
    "  version: 1.0.0",
    "actions:",
    ...Array.from({ length: extraActions + 1 }, (_, i) => [
      `  - actionId: a${i}`,
      "    actionType: custom",
      "    label: An action",
      "    steps: []",
      "    result:",
      `      data: ${JSON.stringify(data)}`
    ]).flat()
  ].join("\n") + "\n"

const refused = (text: string, limits?: Partial<ParseLimits>): ReadonlyArray<ConnectorIssue> => {
  const result = parseConnector(text, limits)
  if (Either.isRight(result)) throw new Error("expected the connector to be refused")
  return result.left.issues
}

const accepted = (text: string) => {
  const result = parseConnector(text)
  if (Either.isLeft(result)) throw new Error(`expected the connector to load: ${result.left.message}`)
  return result.right
}

/** Room for any expression length, so that nesting alone decides. */
const roomy: Partial<ParseLimits> = { maxExpressionLength: 1_000_000, maxExpressionChars: 1_000_000 }

const nested = (open: string, inner: string, close: string, levels: number) =>
  open.repeat(levels) + inner + close.repeat(levels)

/** The one issue of a one-action connector whose data is `data`: at `result.data`, line 12. */
const dataIssue = (message: string): ConnectorIssue => ({ path: "actions[0].result.data", message, line: 12, column: 13 })

const tooDeep = (at: number) =>
  dataIssue(`expression nested deeper than ${maxExpressionDepth} levels at character ${at} (maxExpressionDepth)`)

describe("expression nesting", () => {
  it("refuses parentheses, helper calls, arrays and objects nested past maxExpressionDepth", () => {
    const cases: ReadonlyArray<readonly [string, (levels: number) => string, number]> = [
      ["parentheses", (levels) => nested("(", "1", ")", levels), 33],
      ["helper calls", (levels) => nested("lower(", "'a'", ")", levels), 6 * 33],
      ["arrays", (levels) => nested("[", "1", "]", levels), 33],
      ["objects", (levels) => nested("{a: ", "1", "}", levels), 4 * 32 + 1],
      ["filters", (levels) => `a${"[.b".repeat(levels)}${"]".repeat(levels)}`, 2 + 3 * 32]
    ]
    for (const [label, body, at] of cases) {
      // the issue's own sizes (10,000 and 5,000 levels) are too long already; with room
      // for their length they are too deep, as is the first level past the limit
      for (const levels of [10_000, 5000]) {
        const text = connector(`{{${body(levels)}}}`)
        expect(refused(text)[0]!.message).toMatch(/^expression is \d+ characters; at most 4096 allowed \(maxExpressionLength\)$/)
        expect({ label, levels, issues: refused(text, roomy) }).toEqual({ label, levels, issues: [tooDeep(at)] })
      }
      expect({ label, issues: refused(connector(`{{${body(maxExpressionDepth + 1)}}}`)) })
        .toEqual({ label, issues: [tooDeep(at)] })
      expect(accepted(connector(`{{${body(maxExpressionDepth)}}}`)).compiled.get("actions[0].result.data"))
        .toMatchObject({ kind: "jexl" })
    }
  })

  it("counts each ternary as a level until its bracket closes, as jexl nests them", () => {
    const chain = (levels: number) => `${"a ? 1 : ".repeat(levels)}2`
    expect(refused(connector(`{{${chain(5000)}}}`), roomy)).toEqual([tooDeep(8 * 32 + 3)])
    expect(refused(connector(`{{${chain(maxExpressionDepth + 1)}}}`))).toEqual([tooDeep(8 * 32 + 3)])
    expect(accepted(connector(`{{${chain(maxExpressionDepth)}}}`)).compiled.size).toBeGreaterThan(0)
    // ternaries in sibling brackets do not add up; `??` is no ternary
    const siblings = Array.from({ length: 100 }, () => "(a ? 1 : 2)").join(" + ")
    expect(expressionNesting(siblings, 2)).toBeUndefined()
    expect(expressionNesting("a ?? b ?? c ?? d", 0)).toBeUndefined()
  })

  it("skips quoted text and checks JSONPath filters and interpolations too", () => {
    expect(expressionNesting(`'${"(".repeat(100)}' + "${"[".repeat(100)}\\""`, 0)).toBeUndefined()
    const filter = `$.items[?(${nested("(", "@.a", ")", 40)})]`
    // `[`, `?` and `(` open three levels; the 30th parenthesis after them is the 33rd
    expect(refused(connector(filter))).toEqual([tooDeep(10 + 30)])
    const interpolation = `/users/\${inputs[${nested("(", "1", ")", 40)}]}`
    expect(refused(connector(interpolation))[0]!.message).toContain("(maxExpressionDepth)")
  })
})

describe("expression size", () => {
  it("refuses an expression longer than maxExpressionLength unread, and takes one of that length", () => {
    const body = (length: number) => `{{${"a + ".repeat(length).slice(0, length - 5)}1}}`
    expect(body(maxExpressionLength + 1)).toHaveLength(maxExpressionLength + 1)
    expect(refused(connector(body(maxExpressionLength + 1)))).toEqual([
      dataIssue(`expression is ${maxExpressionLength + 1} characters; at most 4096 allowed (maxExpressionLength)`)
    ])
    expect(accepted(connector(body(maxExpressionLength))).compiled.get("actions[0].result.data")!.source)
      .toHaveLength(maxExpressionLength)
    // a plain literal is never parsed, so its length is the document's business only
    expect(accepted(connector("x".repeat(100_000))).compiled.size).toBeGreaterThan(0)
  })

  it("bounds a connector's expressions in number and in total length, naming where the budget ran out", () => {
    expect(refused(connector("$.inputs.id", 10), { maxExpressions: 10 })).toEqual([
      { path: "actions[10].result.data", message: "more than 10 expressions in the connector (maxExpressions)", line: 72, column: 13 }
    ])
    const long = `{{${"a + ".repeat(1000)}1}}`
    const issues = refused(connector(long, 40))
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({
      path: `actions[${Math.floor(defaultParseLimits.maxExpressionChars / long.length)}].result.data`,
      message: "expressions total more than 65536 characters in the connector (maxExpressionChars)"
    })
    expect(accepted(connector(long, 10)).compiled.size).toBeGreaterThan(10)
  })

  it("leaves nothing in jsonpath-plus's path cache for a refused connector", () => {
    const split = vi.spyOn(JSONPath, "toPathArray")
    try {
      refused(connector("$.items[*].unique_to_this_test", 1) + "extra: [\n")
      refused(connector("$.items[*].unique_to_this_test", 1).replace("version: 1.0.0", "version: one"))
      expect(split).not.toHaveBeenCalled()
      // a loaded expression is split when it is first used, not when it is compiled
      const compiled = compileExpression("$.items[*].name")
      expect(split).not.toHaveBeenCalled()
      expect(Either.getOrThrow(compiled)).toMatchObject({ path: ["$", "items", "*", "name"] })
      expect(split).toHaveBeenCalledTimes(1)
    } finally {
      split.mockRestore()
    }
  })
})

describe("YAML bounds", () => {
  const yamlIssue = (text: string) => {
    const issues = refused(text)
    expect(issues).toHaveLength(1)
    return issues[0]!
  }

  it("refuses YAML nested 20,000 deep on the token stream, before composing", () => {
    const arrays = connector("x").replace("    steps: []", `    steps: ${nested("[", "1", "]", 20_000)}`)
    expect(yamlIssue(arrays)).toEqual({ path: "", message: "nested deeper than 64 levels (maxDepth)", line: 10, column: 75 })
    const blocks = `a:\n  ${"- ".repeat(20_000)}1\n`
    expect(yamlIssue(blocks)).toMatchObject({ path: "", message: "nested deeper than 64 levels (maxDepth)", line: 2 })
  })

  it("refuses an alias bomb while expanding it, and aliases that widen the document past maxNodes", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for (let i = 1; i < 12; i++) {
      const name = String.fromCharCode(97 + i)
      const previous = String.fromCharCode(96 + i)
      levels.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(", ")}]`)
    }
    expect(yamlIssue(`${levels.join("\n")}\n`)).toMatchObject({ path: "", message: expect.stringContaining("(maxAliasCount 100)") })
    const wide = `list: &l [${Array.from({ length: 20_000 }, () => "1").join(", ")}]\ncopies: [*l, *l, *l, *l, *l, *l, *l, *l, *l, *l, *l]\n`
    expect(yamlIssue(wide)).toEqual({ path: "", message: "more than 200000 values after expanding aliases", line: 1, column: 1 })
  })

  it("refuses aliases that multiply a long string past maxExpandedChars, naming the alias", () => {
    const copies = (count: number) =>
      `${connector("x")}blob: &b "${"x".repeat(500_000)}"\ncopies: [${Array(count).fill("*b").join(", ")}]\n`
    expect(refused(copies(5))).toEqual([{
      path: "copies[0]",
      message: "more than 2097152 characters after expanding aliases (maxExpandedChars)",
      line: 14,
      column: 10
    }])
    expect(accepted(copies(3)).canonical.length).toBeGreaterThan(2_000_000)
  })

  it("finds a repeated key among 40,000 with a set per mapping (yaml's own check is quadratic)", () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `  s${i}: 1`)
    const repeated = `a: 1\nscopes:\n${keys.join("\n")}\n  s17: 2\n  "17": x\n  17: y\n`
    expect(refused(repeated)).toEqual([
      { path: "", message: "YAML: Map keys must be unique", line: 40_003, column: 3 },
      { path: "", message: "YAML: Map keys must be unique", line: 40_005, column: 3 }
    ])
    expect(refused("a: {b: 1, b: 2}\n")).toEqual([{ path: "", message: "YAML: Map keys must be unique", line: 1, column: 11 }])
  })

  it("locates every issue of a wide mapping by an index, each at its own line", () => {
    const wide = connector("x") + `scopeDefinitions:\n${Array.from({ length: 30_000 }, (_, i) => `  s${i}: 1`).join("\n")}\n`
    const issues = refused(wide)
    expect(issues).toHaveLength(30_000)
    expect(issues[29_999]).toEqual({ path: "scopeDefinitions.s29999", message: "expected object", line: 30_013, column: 11 })
  })

  it("refuses a document over maxBytes by its size alone", () => {
    const huge = connector("x") + `padding: "${"y".repeat(defaultParseLimits.maxBytes)}"\n`
    expect(yamlIssue(huge)).toEqual({
      path: "",
      message: `document is ${Buffer.byteLength(huge)} bytes; at most 524288 allowed (maxBytes)`
    })
  })
})
