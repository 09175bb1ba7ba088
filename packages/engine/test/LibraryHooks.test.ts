import { describe, expect, it } from "@effect/vitest"
import jexl from "jexl"
import { JSONPathClass } from "jsonpath-plus"
import { checkJexlAstHook, expressionLanguage } from "../src/ExpressionLanguage.js"
import { checkSafeScriptHook } from "../src/JsonPathSyntax.js"

// The engine reads two library internals with no public API; each is checked at module load.
describe("library hooks", () => {
  it("accepts the installed jexl and refuses one without a readable AST", () => {
    expect(() => checkJexlAstHook(expressionLanguage)).not.toThrow()
    expect(() => checkJexlAstHook({ compile: () => ({}) })).toThrow(/installed jexl.*_getAst is missing/)
    expect(() => checkJexlAstHook({ compile: () => ({ _getAst: () => ({ type: "Program" }) }) }))
      .toThrow(/installed jexl.*no longer returns the AST/)
  })

  it("accepts the installed jsonpath-plus and refuses a missing or lax filter parser", () => {
    expect(() => checkSafeScriptHook(JSONPathClass.prototype)).not.toThrow()
    expect(() => checkSafeScriptHook({})).toThrow(/installed jsonpath-plus.*safeVm.Script is missing/)
    expect(() => checkSafeScriptHook({ safeVm: { Script: class {} } })).toThrow(/accepts a broken filter/)
    const refusesAll = class {
      constructor() {
        throw new Error("no")
      }
    }
    expect(() => checkSafeScriptHook({ safeVm: { Script: refusesAll } })).toThrow(/refuses a valid filter/)
  })

  it("registers binary operators that parse and evaluate as jexl's defaults", () => {
    const defaults = new jexl.Jexl()
    const context = { a: 7, b: 2, s: "abc", list: [1, 2], t: true }
    for (const source of [
      "a + b * 3 - 1",
      "a // b + a % b ^ 2",
      "a / b == 3.5 && a != b",
      "a > b || a >= b",
      "a < b == false",
      "a <= 7 ? 'yes' : 'no'",
      "!t == false",
      "'b' in s && 2 in list && 3 in list == false && 1 in 5 == false",
      "s + a + b"
    ]) {
      expect(expressionLanguage.compile(source).evalSync(context), source).toEqual(defaults.compile(source).evalSync(context))
      expect(expressionLanguage.compile(source)._getAst(), source).toEqual(defaults.compile(source)._getAst())
    }
  })
})
