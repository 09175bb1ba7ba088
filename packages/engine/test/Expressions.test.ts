import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { MAX_REPLACED_LENGTH, MAX_SPLIT_PARTS } from "../src/ExpressionHelpers.js"
import {
  classifyExpression,
  compileEvaluator,
  compileExpression,
  type CompiledExpression,
  ContextScope,
  expressionHelpers,
  jsonPathSyntaxError
} from "../src/index.js"

const compiled = (source: string): CompiledExpression => {
  const result = compileExpression(source)
  if (Either.isLeft(result)) throw new Error(`expected ${source} to compile: ${result.left}`)
  return result.right
}

const rejected = (source: string): string => {
  const result = compileExpression(source)
  if (Either.isRight(result)) throw new Error(`expected ${source} to be rejected`)
  return result.left
}

describe("classifyExpression", () => {
  it("tells the four forms apart by shape", () => {
    expect(classifyExpression("$.inputs.id")).toBe("jsonpath")
    expect(classifyExpression("$")).toBe("jsonpath")
    expect(classifyExpression("/users/${inputs.id}")).toBe("interpolation")
    expect(classifyExpression("${inputs.id}")).toBe("interpolation")
    expect(classifyExpression("{{present(inputs.email)}}")).toBe("jexl")
    expect(classifyExpression(" {{ $.status == \"Active\" }} ")).toBe("jexl")
    expect(classifyExpression("get")).toBe("literal")
    expect(classifyExpression("50")).toBe("literal")
    expect(classifyExpression("/users/{{id}}")).toBe("literal")
  })
})

describe("JSONPath", () => {
  it("accepts the paths connectors use", () => {
    for (const path of [
      "$",
      "$.inputs.id",
      "$.steps.fetch.output.data.items",
      "$.items[0]",
      "$.items[*].id",
      "$..id",
      "$..*",
      "$['odd key'].x",
      "$['a','b']",
      "$.items[0:10:2]",
      "$.items[-1:]",
      "$.items[0,1]",
      "$.items[?(@.status === 'Active')]",
      "$..[?(@property === 'id')]",
      "$.items[(@.length-1)]",
      "$.fetch_employees.email",
      "$.credentials.api-key",
      "$.a.b^",
      "$.a.*~",
      "$..@string()"
    ]) {
      expect(jsonPathSyntaxError(path), path).toBeUndefined()
    }
  })

  it("rejects broken paths that jsonpath-plus itself would silently accept", () => {
    for (const path of [
      "$.[",
      "$..[?(",
      "$..[?(@.x",
      "$.a[",
      "$.a]",
      "$.",
      "$..",
      "$a",
      "$.a b",
      "$.a[]",
      "$.a['x]",
      "$.a[?(@.x ==)]",
      "$.a[?()]",
      "$.a..",
      "$.a[0,]"
    ]) {
      expect(jsonPathSyntaxError(path), path).toBeTypeOf("string")
    }
  })

  it("compiles to a path array and reports where it broke", () => {
    const path = compiled("$.steps.fetch.output.data")
    expect(path).toMatchObject({ kind: "jsonpath", path: ["$", "steps", "fetch", "output", "data"] })
    expect(rejected("$.[")).toBe('invalid JSONPath "$.[": unclosed [ at character 3')
    expect(rejected("$..[?(")).toContain("unclosed ( at character 6")
  })
})

describe("interpolation", () => {
  it("splits text and compiled context paths", () => {
    const result = compiled("https://${credentials.subdomain}.example.com/users/${inputs.id}")
    expect(result.kind).toBe("interpolation")
    if (result.kind !== "interpolation") return
    expect(result.parts.map((part) => (typeof part === "string" ? part : part.source))).toEqual([
      "https://",
      "$.credentials.subdomain",
      ".example.com/users/",
      "$.inputs.id"
    ])
  })

  it("rejects an unterminated, empty or invalid ${...}", () => {
    expect(rejected("/users/${unterminated")).toBe("unterminated ${ at character 8")
    expect(rejected("/users/${}")).toBe("empty ${} at character 8")
    expect(rejected("/users/${inputs..}")).toContain("invalid JSONPath")
    expect(rejected("/users/${inputs.[}")).toContain("unterminated")
  })
})

describe("JEXL", () => {
  it("compiles with the helpers known, without evaluating", () => {
    const result = compiled("{{present(inputs.email) && keys(inputs)|includes('email')}}")
    expect(result.kind).toBe("jexl")
    if (result.kind !== "jexl") return
    expect(result.calls).toEqual(["includes", "keys", "present"])
    // the compiled form evaluates later without re-parsing
    expect(result.expression.evalSync({ inputs: { email: "a@b.c" } })).toBe(true)
    expect(result.expression.evalSync({ inputs: {} })).toBe(false)
  })

  it("supports ?? like StackOne expressions, lazily", () => {
    const result = compiled('{{($.credentials.scopes ?? "read") + " offline"}}')
    if (result.kind !== "jexl") throw new Error("expected jexl")
    expect(result.expression.evalSync({ $: { credentials: {} } })).toBe("read offline")
    expect(result.expression.evalSync({ $: { credentials: { scopes: "write" } } })).toBe("write offline")
    const lazy = compiled("{{a ?? missing(b.c.d)}}")
    if (lazy.kind !== "jexl") throw new Error("expected jexl")
    expect(lazy.expression.evalSync({ a: 0 })).toBe(0)
  })

  it("reads $ as a context name", () => {
    const result = compiled('{{$.status == "Active"}}')
    if (result.kind !== "jexl") throw new Error("expected jexl")
    expect(result.expression.evalSync({ $: { status: "Active" } })).toBe(true)
  })

  it("rejects syntax errors, unbalanced brackets and empty bodies", () => {
    expect(rejected("{{ a + }}")).toContain("invalid JEXL")
    expect(rejected("{{ (a }}")).toBe('invalid JEXL "(a": unclosed "("')
    expect(rejected("{{ a) }}")).toContain('unexpected ")"')
    expect(rejected("{{ 'open }}")).toContain("unterminated string")
    expect(rejected("{{ a = 1 }}")).toContain("invalid JEXL")
    expect(rejected("{{   }}")).toBe("empty {{ }} expression")
  })

  it("has no syntax that reaches JavaScript", () => {
    expect(rejected("{{ `${process.exit()}` }}")).toContain("invalid JEXL")
    expect(rejected("{{ inputs.constructor }}")).toContain("invalid JEXL")
  })
})

describe("expression helpers", () => {
  /**
   * `name(subject, ...args)` and `subject|name(...args)`, each through the runner's
   * evaluator and through jexl's own: all four must agree. Values travel in the context
   * (`v`, `a0`, `a1`, ...), so any value, undefined included, can be passed.
   */
  const call = (name: string, subject: unknown, ...args: Array<unknown>): unknown => {
    const context: Record<string, unknown> = { v: subject }
    args.forEach((arg, index) => (context[`a${index}`] = arg))
    const names = args.map((_, index) => `a${index}`)
    const asFunction = compiled(`{{${name}(${["v", ...names].join(", ")})}}`)
    const asTransform = compiled(`{{v|${name}${names.length > 0 ? `(${names.join(", ")})` : ""}}}`)
    const results = [asFunction, asTransform].flatMap((expression) => {
      if (expression.kind !== "jexl") throw new Error("expected jexl")
      expect(expression.calls).toEqual([name])
      return [
        compileEvaluator(expression)(new ContextScope(context)),
        expression.expression.evalSync({ ...context, $: context })
      ]
    })
    for (const result of results) expect(result, `${name} forms disagree`).toEqual(results[0])
    return results[0]
  }

  it("keep the behaviour of present, missing, includes, keys and join", () => {
    expect([call("present", "x"), call("present", ""), call("present", []), call("missing", undefined)]).toEqual([true, false, false, true])
    expect([call("includes", ["a", "b"], "b"), call("includes", "abc", "bc"), call("includes", 5, 5)]).toEqual([true, true, false])
    expect([call("keys", { a: 1, b: 2 }), call("keys", [1])]).toEqual([["a", "b"], []])
    expect([call("join", ["a", "", null, 1, true, { x: 1 }]), call("join", ["a", "b"], "/")]).toEqual(["a, 1, true", "a/b"])
  })

  it("unique keeps the first of each present value, or of each record's value under a key", () => {
    expect(call("unique", ["Munich", "Berlin", "Munich", "", null, 2, 2, { x: 1 }])).toEqual(["Munich", "Berlin", 2])
    const positions = [{ id: 1, office: "Munich" }, { id: 2, office: "Berlin" }, { id: 3, office: "Munich" }, { id: 4 }, "Paris"]
    expect(call("unique", positions, "office")).toEqual([{ id: 1, office: "Munich" }, { id: 2, office: "Berlin" }])
    expect([call("unique", undefined), call("unique", null), call("unique", "Munich")]).toEqual([undefined, null, null])
  })

  it("lower, upper and trim read text", () => {
    expect(call("lower", "Ada@Example.COM")).toBe("ada@example.com")
    expect(call("upper", "fr")).toBe("FR")
    expect(call("trim", "  a b \n")).toBe("a b")
    for (const name of ["lower", "upper", "trim"]) {
      expect(call(name, 42), name).toBeNull()
      expect(call(name, { a: 1 }), name).toBeNull()
      expect(call(name, undefined), name).toBeUndefined()
      expect(call(name, null), name).toBeNull()
    }
  })

  it("split and replace are literal, replace everywhere and bound what they build", () => {
    expect(call("split", "a,b,,c", ",")).toEqual(["a", "b", "", "c"])
    expect(call("split", "a.b", ".")).toEqual(["a", "b"])
    expect(call("split", "a,b", 1)).toBeNull()
    expect(call("split", ["a"], ",")).toBeNull()
    expect(call("replace", "a.b.c", ".", "-")).toBe("a-b-c")
    // neither a regex nor replacement patterns: `.*` and `$&` are plain text
    expect(call("replace", "x.*y.*", ".*", "$&$1")).toBe("x$&$1y$&$1")
    expect(call("replace", "(a+)+b", "a+", "")).toBe("()+b")
    expect(call("replace", "abc", "", "-")).toBe("abc")
    expect(call("replace", "abc", "b", undefined)).toBeNull()
    expect(call("replace", 12, "1", "2")).toBeNull()
    // text × replacement can outgrow memory: refused before it is built...
    const replace = expressionHelpers.replace!
    expect(replace("x".repeat(1000), "x", "y".repeat(MAX_REPLACED_LENGTH / 1000))).toHaveLength(MAX_REPLACED_LENGTH)
    expect(replace("x".repeat(1000), "x", "y".repeat(MAX_REPLACED_LENGTH / 1000 + 1))).toBeNull()
    // join and concat answer null rather than throw past the bound; split keeps a bounded number of parts
    const huge = Array.from({ length: 11 }, () => "z".repeat(MAX_REPLACED_LENGTH / 10))
    expect(expressionHelpers.join!(huge, "")).toBeNull()
    expect(expressionHelpers.concat!(...huge)).toBeNull()
    expect(expressionHelpers.join!(huge.slice(0, 2), "")).toHaveLength(2 * MAX_REPLACED_LENGTH / 10)
    expect(expressionHelpers.split!("q".repeat(MAX_SPLIT_PARTS * 3), "")).toHaveLength(MAX_SPLIT_PARTS)
    // ...and what is built still meets the expression output bound
    const scope = new ContextScope({ v: "x".repeat(100), a: "y".repeat(100) }, { maxStringLength: 1000 })
    expect(() => compileEvaluator(compiled("{{v|replace('x', a)}}"))(scope)).toThrow(/at most 1000/)
  })

  it("substring counts from 0, negative positions from the end", () => {
    expect(call("substring", "2024-05-01", 0, 4)).toBe("2024")
    expect(call("substring", "2024-05-01", 5)).toBe("05-01")
    expect(call("substring", "abcdef", -2)).toBe("ef")
    expect(call("substring", "abcdef", 1.9, 3)).toBe("bc")
    expect(call("substring", "abc", "1")).toBeNull()
    expect(call("substring", "abc", 0, null)).toBeNull()
    expect(call("substring", 12345, 0, 2)).toBeNull()
  })

  it("length of text or a list; startsWith and endsWith are false on anything but text", () => {
    expect([call("length", "abc"), call("length", [1, 2]), call("length", ""), call("length", 5), call("length", undefined)]).toEqual([
      3, 2, 0, null, undefined
    ])
    expect([call("startsWith", "+33 1", "+33"), call("startsWith", "abc", "b"), call("startsWith", 331, "3")]).toEqual([true, false, false])
    expect([call("endsWith", "a@acme.io", "@acme.io"), call("endsWith", "abc", "b"), call("endsWith", "abc", null)]).toEqual([true, false, false])
  })

  it("concat joins the present strings, numbers and booleans", () => {
    expect(call("concat", "Ada", " ", "Lovelace")).toBe("Ada Lovelace")
    expect(call("concat", "n", 1, true, undefined, null, "", { a: 1 }, ["x"])).toBe("n1true")
    expect(call("concat", undefined)).toBe("")
    expect(compileEvaluator(compiled("{{concat()}}"))(new ContextScope({}))).toBe("")
  })

  it("string and number convert, null when they cannot", () => {
    expect([call("string", "a"), call("string", 4.5), call("string", false)]).toEqual(["a", "4.5", "false"])
    expect([call("string", { a: [1] }), call("string", [1, "b"])]).toEqual(['{"a":[1]}', '[1,"b"]'])
    expect([call("string", new Uint8Array([1])), call("string", undefined)]).toEqual([null, undefined])
    expect([call("number", "42"), call("number", " -1.5e2 "), call("number", 7), call("number", true)]).toEqual([42, -150, 7, 1])
    expect([call("number", "4x"), call("number", ""), call("number", "0x10"), call("number", [1]), call("number", null)]).toEqual([
      null, null, null, null, null
    ])
    // `toString` cannot be a name: jexl's lexer reads Object.prototype names as grammar elements
    expect(rejected("{{toString(1)}}")).toContain("invalid JEXL")
  })

  it("date reads ISO 8601 (zone-less as UTC), dates alone, epoch seconds and milliseconds", () => {
    expect(call("date", "2024-05-01")).toBe("2024-05-01T00:00:00.000Z")
    expect(call("date", "2024-05-01T10:20:30")).toBe("2024-05-01T10:20:30.000Z")
    expect(call("date", "2024-05-01T10:20:30.5+02:00")).toBe("2024-05-01T08:20:30.500Z")
    expect(call("date", 1_700_000_000)).toBe("2023-11-14T22:13:20.000Z")
    expect(call("date", 1_700_000_000_123)).toBe("2023-11-14T22:13:20.123Z")
    for (const unreadable of ["soon", "2024-13-01", "2024-02-30", {}, [], true, 1e300]) {
      expect(call("date", unreadable), JSON.stringify(unreadable)).toBeNull()
    }
    expect(call("date", undefined)).toBeUndefined()
  })

  it("formatDate knows YYYY MM DD HH mm ss SSS and copies everything else", () => {
    expect(call("formatDate", "2024-05-01T08:09:10.042Z", "YYYY/MM/DD HH:mm:ss.SSS")).toBe("2024/05/01 08:09:10.042")
    expect(call("formatDate", 1_700_000_000, "DD.MM.YYYY")).toBe("14.11.2023")
    expect(call("formatDate", "2024-05-01T23:30:00-02:00", "YYYY-MM-DD")).toBe("2024-05-02")
    expect(call("formatDate", "2024-05-01", "[week] Q")).toBe("[week] Q")
    expect(call("formatDate", "2024-05-01", 5)).toBeNull()
    expect(call("formatDate", "someday", "YYYY")).toBeNull()
    expect(call("formatDate", undefined, "YYYY")).toBeUndefined()
  })

  it("addDays, toEpoch and fromEpoch", () => {
    expect(call("addDays", "2024-02-28", 1)).toBe("2024-02-29T00:00:00.000Z")
    expect(call("addDays", "2024-03-01T12:00:00Z", -1)).toBe("2024-02-29T12:00:00.000Z")
    expect(call("addDays", "2024-03-01", "1")).toBeNull()
    expect(call("addDays", "2024-03-01", 1e12)).toBeNull()
    expect(call("addDays", "later", 1)).toBeNull()
    expect(call("toEpoch", "2023-11-14T22:13:20.999Z")).toBe(1_700_000_000)
    expect(call("toEpoch", 1_700_000_000_000)).toBe(1_700_000_000)
    expect(call("toEpoch", "never")).toBeNull()
    expect(call("fromEpoch", 1_700_000_000)).toBe("2023-11-14T22:13:20.000Z")
    expect(call("fromEpoch", "1700000000")).toBe("2023-11-14T22:13:20.000Z")
    expect(call("fromEpoch", 0)).toBe("1970-01-01T00:00:00.000Z")
    for (const unreadable of ["x", true, 1e20, {}]) expect(call("fromEpoch", unreadable), String(unreadable)).toBeNull()
    expect(call("fromEpoch", undefined)).toBeUndefined()
  })

  it("compose, and an unknown helper is refused when compiled, naming it", () => {
    const composed = compiled("{{(inputs.email|trim|lower|endsWith('@acme.io')) ? formatDate(addDays(inputs.start, 7), 'YYYY-MM-DD') : null}}")
    const scope = new ContextScope({ inputs: { email: " Ada@ACME.io ", start: "2024-12-28" } })
    expect(compileEvaluator(composed)(scope)).toBe("2025-01-04")
    const unknown = compileExpression("{{inputs.email|titlecase}}")
    expect(Either.isLeft(unknown) && unknown.left).toMatch(/unknown helper "titlecase" \(helpers: present, missing, /)
    expect(Either.isLeft(compileExpression("{{frobnicate(1) || lower('A')}}"))).toBe(true)
  })
})
