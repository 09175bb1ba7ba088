import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { classifyExpression, compileExpression, type CompiledExpression, jsonPathSyntaxError } from "../src/index.js"

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
