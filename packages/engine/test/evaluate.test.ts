import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { JSONPath } from "jsonpath-plus"
import {
  compileEvaluator,
  compileExpression,
  type CompiledExpression,
  type CompiledJexl,
  type CompiledJsonPath,
  compileTemplate,
  ContextScope,
  evaluateExpression,
  ExpressionError,
  expressionLanguage,
  isFastJexl,
  isTruthy,
  plainJsonPath,
  RecordScope,
  ValueScope
} from "../src/index.js"

const compiled = (source: string): CompiledExpression => {
  const result = compileExpression(source)
  if (Either.isLeft(result)) throw new Error(`${source}: ${result.left}`)
  return result.right
}

const context = {
  inputs: { id: "42", page_size: 10, email: "", tags: ["a", "b"], flag: false, nested: { deep: { value: 1 } } },
  credentials: { apiKey: "k-1", subdomain: "acme" },
  steps: {
    fetch: { output: { data: { items: [{ id: 1, status: "Active" }, { id: 2, status: "Gone" }], total: 2 } } }
  },
  settings: {}
}

const evaluate = (source: string, ctx: Record<string, unknown> = context) => evaluateExpression(compiled(source), ctx)

describe("evaluate: literals and JSONPath", () => {
  it("returns literals as written", () => {
    expect(evaluate("get")).toBe("get")
    expect(evaluate("50")).toBe("50")
  })

  it("reads plain paths directly and everything else through jsonpath-plus", () => {
    expect(evaluate("$.inputs.id")).toBe("42")
    expect(evaluate("$.inputs.nested.deep.value")).toBe(1)
    expect(evaluate("$.steps.fetch.output.data.items[1].status")).toBe("Gone")
    expect(evaluate("$.steps.fetch.output.data.items[*].id")).toEqual([1, 2])
    expect(evaluate("$.steps.fetch.output.data.items[?(@.status === 'Active')].id")).toEqual([1])
    expect(evaluate("$..total")).toEqual([2])
    expect(evaluate("$.inputs.missing.more")).toBeUndefined()
    expect(evaluate("$")).toBe(context)
  })

  it("the fast path agrees with jsonpath-plus on plain paths", () => {
    const json = {
      a: { b: [10, { c: "x" }], zero: 0, empty: "", nil: null, str: "abc" },
      "odd key": { v: 1 },
      arr: [[1, 2]]
    }
    const paths = [
      "$.a", "$.a.b", "$.a.b[0]", "$.a.b[1].c", "$.a.b.1.c", "$.a.b.length", "$.a.zero", "$.a.zero.x",
      "$.a.empty", "$.a.empty.length", "$.a.nil", "$.a.nil.x", "$.a.str.length", "$.a.str[0]",
      "$.a.toString", "$.a.__proto__", "$.a.constructor", "$['odd key'].v", "$.arr[0][1]", "$.nope", "$.a.b[5]"
    ]
    for (const path of paths) {
      const expression = compiled(path) as CompiledJsonPath
      expect(plainJsonPath(expression), path).toBeDefined()
      const fast = compileEvaluator(expression)(new ValueScope(json))
      const reference = JSONPath({ path, json, wrap: false, eval: "safe" })
      expect(fast, path).toEqual(reference)
    }
  })

  it("never runs JavaScript from a filter", () => {
    const hostile = "$.steps.fetch.output.data.items[?(@.constructor.constructor('return process')())]"
    let result: unknown
    try {
      result = evaluate(hostile)
    } catch (error) {
      result = error
    }
    expect(result === undefined || result instanceof ExpressionError).toBe(true)
  })
})

describe("evaluate: interpolation", () => {
  it("joins text and values; missing values become empty text", () => {
    expect(evaluate("/users/${inputs.id}/x")).toBe("/users/42/x")
    expect(evaluate("/users/${inputs.nope}/x")).toBe("/users//x")
    expect(evaluate("tags=${inputs.tags}")).toBe("tags=a,b")
    expect(evaluate("n=${inputs.nested.deep}")).toBe('n={"value":1}')
    expect(evaluate("https://${credentials.subdomain}.example.com")).toBe("https://acme.example.com")
  })

  it("a single placeholder yields the value itself", () => {
    expect(evaluate("${inputs.page_size}")).toBe(10)
    expect(evaluate("${inputs.nope}")).toBeUndefined()
  })

  it("percent-encodes values after the start of a URL", () => {
    const url = compileEvaluator(compiled("/users/${inputs.id}?q=${inputs.q}"), { urlEncode: true })
    const scope = new ContextScope({ inputs: { id: "../admin", q: "a b&c" } })
    expect(url(scope)).toBe("/users/..%2Fadmin?q=a%20b%26c")
    const leading = compileEvaluator(compiled("${settings.base}/v1"), { urlEncode: true })
    expect(leading(new ContextScope({ settings: { base: "https://x.io" } }))).toBe("https://x.io/v1")
  })
})

describe("evaluate: JEXL", () => {
  it("evaluates with the helpers and `$` as the root", () => {
    expect(evaluate("{{present(inputs.id)}}")).toBe(true)
    expect(evaluate("{{present(inputs.email)}}")).toBe(false)
    expect(evaluate("{{missing(inputs.nope)}}")).toBe(true)
    expect(evaluate("{{$.inputs.page_size * 2}}")).toBe(20)
    expect(evaluate('{{inputs.nope ?? "fallback"}}')).toBe("fallback")
    expect(evaluate("{{includes(inputs.tags, 'b')}}")).toBe(true)
    expect(evaluate("{{inputs.tags|keys}}")).toEqual([])
    expect(evaluate('{{join(["a", null, "", 2, {x: 1}, "b"], " / ")}}')).toBe("a / 2 / b")
    expect(evaluate('{{join(inputs.tags)}}')).toBe("a, b")
    expect(evaluate('{{join(inputs.nope, "-")}}')).toBe("")
    expect(evaluate("{{inputs.flag ? 'y' : 'n'}}")).toBe("n")
    expect(evaluate("{{steps.fetch.output.data.items[.status == 'Gone']}}")).toEqual([{ id: 2, status: "Gone" }])
  })

  it("compiles the common node types to closures that agree with jexl itself", () => {
    const sources = [
      '$.status == "Active"',
      "present(inputs.email) && inputs.page_size > 5",
      "inputs.nope || inputs.id",
      'inputs.nope ?? "d"',
      "!inputs.flag",
      "inputs.tags[1]",
      "inputs['id']",
      "inputs.tags[0] in ['a', 'c']",
      "'x' in inputs.id",
      "inputs.page_size // 3 + inputs.page_size % 3",
      "inputs.page_size ? [inputs.id, {k: inputs.page_size}] : null",
      "inputs.nested.deep.value == 1",
      "inputs.tags.length",
      "keys(inputs.nested)",
      "inputs.id|present",
      "status == 'Active'"
    ]
    const root = { ...context, status: "Active" }
    for (const source of sources) {
      const expression = compiled(`{{${source}}}`) as CompiledJexl
      expect(isFastJexl(expression), source).toBe(true)
      const fast = compileEvaluator(expression)(new ContextScope(root))
      const reference = expressionLanguage.compile(source).evalSync({ ...root, $: root })
      expect(fast, source).toEqual(reference)
    }
    // relative filters run through jexl itself
    expect(isFastJexl(compiled("{{steps.fetch.output.data.items[.status == 'Gone']}}") as CompiledJexl)).toBe(false)
  })

  it("reports failures as ExpressionError with the source and path", () => {
    const broken = compileEvaluator(compiled("{{inputs.a + inputs.a}}"), { path: "actions[0].result.data" })
    const scope = new ContextScope({ inputs: { a: "x".repeat(60) } }, { maxStringLength: 100 })
    expect(() => broken(scope)).toThrow(ExpressionError)
    expect(() => broken(scope)).toThrow(/actions\[0\]\.result\.data/)
  })

  it("bounds the strings an expression may build", () => {
    const concat = compiled("{{inputs.a + inputs.a}}")
    const scope = new ContextScope({ inputs: { a: "x".repeat(60) } }, { maxStringLength: 100 })
    expect(() => compileEvaluator(concat)(scope)).toThrow(/at most 100/)
    const interpolation = compiled("${inputs.a}-${inputs.a}")
    expect(() => compileEvaluator(interpolation)(scope)).toThrow(ExpressionError)
  })
})

describe("evaluate: scopes and templates", () => {
  it("a record scope reads the record, its aliases, then the context, without copying", () => {
    const base = new ContextScope(context)
    const scope = new RecordScope(base, ["fetch_employees"])
    const byAlias = compileEvaluator(compiled("$.fetch_employees.status"))
    const direct = compileEvaluator(compiled("$.status"))
    const fromContext = compileEvaluator(compiled("$.inputs.id"))
    const jexl = compileEvaluator(compiled('{{$.status == "Active" && $.fetch_employees.id == 1}}'))
    const fallback = compileEvaluator(compiled("{{steps.fetch.output.data.items[.id == 1][0].status + status}}"))
    scope.set({ id: 1, status: "Active" })
    expect([byAlias(scope), direct(scope), fromContext(scope), jexl(scope), fallback(scope)]).toEqual(["Active", "Active", "42", true, "ActiveActive"])
    scope.set({ id: 2, status: "Gone" })
    expect([byAlias(scope), direct(scope), jexl(scope), fallback(scope)]).toEqual(["Gone", "Gone", false, "ActiveGone"])
    // other paths see the same root, built once per record on demand
    const slow = compileEvaluator(compiled("$.fetch_employees[?(@ === 'Gone')]"))
    expect(slow(scope)).toEqual(["Gone"])
    expect(compileEvaluator(compiled("$..status"))(scope)).toEqual(["Gone", "Active", "Gone", "Gone"])
  })

  it("templates evaluate objects leaf by leaf and drop undefined members", () => {
    const value = { id: "$.inputs.id", name: "fixed", size: 3, list: ["$.inputs.page_size", "x"], gone: "$.inputs.nope" }
    const template = compileTemplate(value, "result.data", new Map())
    expect(template(new ContextScope(context))).toEqual({ id: "42", name: "fixed", size: 3, list: [10, "x"] })
  })

  it("connector truthiness treats the text false as false", () => {
    expect([isTruthy("false"), isTruthy(""), isTruthy(0), isTruthy("true"), isTruthy([]), isTruthy(undefined)]).toEqual([
      false, false, false, true, true, false
    ])
  })
})
