import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { readFileSync } from "node:fs"
import {
  type ConnectorIssue,
  ConnectorParseError,
  defaultParseLimits,
  type ParseLimits,
  parseConnector,
  type ParsedConnector
} from "../src/index.js"

const fixture = readFileSync(new URL("./fixtures/acme-hris.yaml", import.meta.url), "utf8")

const lines = (...rows: Array<string>) => rows.join("\n") + "\n"

const parsed = (text: string): ParsedConnector => {
  const result = parseConnector(text)
  if (Either.isLeft(result)) throw new Error(`expected the connector to parse: ${result.left.message}`)
  return result.right
}

const failure = (text: string, limits?: Partial<ParseLimits>): ConnectorParseError => {
  const result = parseConnector(text, limits)
  if (Either.isRight(result)) throw new Error("expected the connector to be rejected")
  return result.left
}

const issues = (text: string, limits?: Partial<ParseLimits>): ReadonlyArray<ConnectorIssue> =>
  failure(text, limits).issues

/** A minimal valid connector with `actions` replaced by the given YAML lines. */
const withActions = (...actionLines: Array<string>) =>
  lines(
    "StackOne: 1.0.0",
    "info:",
    "  title: Test",
    "  key: test",
    "  version: 1.0.0",
    "actions:",
    ...actionLines
  )

const action = (id: string, stepLines: Array<string> = []) => [
  `  - actionId: ${id}`,
  "    actionType: custom",
  "    label: An action",
  stepLines.length === 0 ? "    steps: []" : "    steps:",
  ...stepLines
]

const step = (id: string, extra: Array<string> = []) => [
  `      - stepId: ${id}`,
  ...extra,
  "        stepFunction:",
  "          functionName: static_values",
  "          parameters:",
  "            values: {a: 1}"
]

describe("a valid connector", () => {
  it("parses the fixture with authentication, steps, field configs, events and scopes", () => {
    const { definition, compiled, contentHash, canonical } = parsed(fixture)
    expect(definition.info).toMatchObject({ key: "acme_hr", version: "1.2.0", title: "Acme HR" })
    expect(definition.actions.map((a) => a.actionId)).toEqual([
      "hris_list_employees",
      "hris_get_employee",
      "hris_create_employee",
      "list_departments",
      "refresh_token"
    ])
    expect(Object.keys(definition.authentication![1]!)).toEqual(["oauth"])
    expect(definition.authentication![1]!.oauth!.refreshAuthentication).toEqual({ action: "refresh_token" })
    expect(definition.scopeDefinitions!["employees:write"]!.includes).toEqual(["employees:read"])
    expect(definition.events!.actions![0]!.actionType).toBe("event")

    const list = definition.actions[0]!
    expect(list.steps.map((s) => s.stepFunction.functionName)).toEqual(["paginated_request", "map_fields", "typecast"])
    expect(list.fieldConfigs![2]!.enumMapper!.matcher).toHaveLength(2)
    // keys outside the modelled subset are kept
    const fetch = list.steps[0]!.stepFunction
    expect(fetch.functionName === "paginated_request" && fetch.parameters.response).toEqual({
      dataKey: "employees",
      nextKey: "next_cursor"
    })

    expect(contentHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.parse(canonical).info.key).toBe("acme_hr")

    expect(compiled.get("baseUrl")?.kind).toBe("interpolation")
    expect(compiled.get("actions[0].fieldConfigs[2].enumMapper.matcher[0].matchExpression")?.kind).toBe("jexl")
    expect(compiled.get("actions[0].steps[0].stepFunction.parameters.args[1].condition")?.kind).toBe("jexl")
    expect(compiled.get("actions[1].steps[0].stepFunction.parameters.url")?.kind).toBe("interpolation")
    expect(compiled.get("actions[0].result.data")?.kind).toBe("jsonpath")
    expect(compiled.get("actions[2].result.data.id")?.kind).toBe("jsonpath")
    expect(compiled.get("actions[0].steps[0].stepFunction.parameters.method"))
      .toEqual({ kind: "literal", source: "get" })
    expect(compiled.get("events.router[0].when")?.kind).toBe("jexl")
    expect(compiled.get("authentication[0].api_key.authorization.username")?.kind).toBe("jsonpath")
    expect(compiled.get("authentication[1].oauth.authorization.authorizationParams.scope")?.kind).toBe("jexl")
    expect(compiled.get("authentication[1].oauth.authorization.authorizationParams.redirect_uri")?.kind)
      .toBe("interpolation")
    expect(definition.actions[2]!.requiredScopes).toBe("employees:write")
  })

  it("accepts an inline refresh action, as StackOne oauth2 methods write it", () => {
    const text = lines(
      "StackOne: 1.0.0",
      "info: {title: T, key: t, version: 1.0.0}",
      "authentication:",
      "  - oauth2:",
      "      type: oauth2",
      "      authorization: {type: oauth2, tokenUrl: 'https://${credentials.host}/token', token: $.credentials.accessToken}",
      "      refreshAuthentication:",
      "        schedule: '0 * * * *'",
      "        action:",
      "          actionId: refresh",
      "          actionType: refresh_token",
      "          label: Refresh",
      "          steps:",
      "            - stepId: call",
      "              stepFunction:",
      "                functionName: request",
      "                parameters: {url: /token, method: post, authorization: {type: basic, username: $.credentials.clientId}}",
      "          result:",
      "            data: $.steps.call.output.data",
      "actions: []"
    )
    const { definition, compiled } = parsed(text)
    const refresh = definition.authentication![0]!.oauth2!.refreshAuthentication!
    expect(typeof refresh.action === "object" && refresh.action.actionId).toBe("refresh")
    const base = "authentication[0].oauth2.refreshAuthentication.action"
    expect(compiled.get(`${base}.steps[0].stepFunction.parameters.authorization.username`)?.kind).toBe("jsonpath")
    expect(compiled.get(`${base}.result.data`)?.kind).toBe("jsonpath")
    expect(compiled.get("authentication[0].oauth2.authorization.tokenUrl")?.kind).toBe("interpolation")

    const broken = text.replace("          label: Refresh\n", "").replace("$.steps.call.output.data", "$.steps.[")
    expect(issues(broken).map((issue) => issue.path)).toEqual([
      "authentication[0].oauth2.refreshAuthentication.action.label",
      "authentication[0].oauth2.refreshAuthentication.action.result.data"
    ])
  })

  it("keeps unknown extra keys at any level", () => {
    const { definition } = parsed(
      withActions(...action("a"), "    x-vendor: {anything: [1, 2]}").replace("info:", "x-top: 1\ninfo:")
    )
    expect((definition as unknown as Record<string, unknown>)["x-top"]).toBe(1)
    expect((definition.actions[0] as unknown as Record<string, unknown>)["x-vendor"]).toEqual({ anything: [1, 2] })
  })

  it("accepts a connector with no actions and MCP-style actions without steps", () => {
    expect(parsed(withActions().replace("actions:", "actions: []")).definition.actions).toEqual([])
    expect(parsed(withActions(...action("tools"))).definition.actions[0]!.steps).toEqual([])
  })

  it("treats an empty optional value as absent", () => {
    const { definition } = parsed(withActions(...action("a"), "    description:"))
    expect(definition.actions[0]!.description).toBeUndefined()
  })
})

describe("content hash", () => {
  const original = lines(
    "StackOne: 1.0.0",
    "info:",
    "  title: Hash",
    "  key: hash",
    "  version: 1.0.0",
    "actions:",
    "  - actionId: a",
    "    actionType: get",
    "    label: A",
    "    steps:",
    "      - stepId: s",
    "        stepFunction:",
    "          functionName: request",
    "          parameters: {url: /a, method: get}",
    "      - stepId: t",
    "        stepFunction:",
    "          functionName: request",
    "          parameters: {url: /a, method: get}"
  )

  const reordered = lines(
    "# same content: keys reordered, comments, other quoting, an anchor",
    "actions:",
    "  - label: 'A'",
    "    steps:",
    "      - stepFunction:",
    "          parameters: &params",
    "            method: \"get\"",
    "            url: /a",
    "          functionName: request",
    "        stepId: s",
    "      - {stepId: t, stepFunction: {functionName: request, parameters: *params}}",
    "    actionId: a   # trailing comment",
    "    actionType: get",
    "info: {version: 1.0.0, key: hash, title: Hash}",
    "StackOne: \"1.0.0\""
  )

  it("is the same for the same content written differently", () => {
    const a = parsed(original)
    const b = parsed(reordered)
    expect(b.canonical).toBe(a.canonical)
    expect(b.contentHash).toBe(a.contentHash)
  })

  it("changes when a value changes", () => {
    expect(parsed(original.replace("title: Hash", "title: Hash!")).contentHash).not.toBe(parsed(original).contentHash)
    const otherUrl = original.replace("url: /a, method: get}\n      - stepId: t", "url: /b, method: get}\n      - stepId: t")
    expect(parsed(otherUrl).contentHash).not.toBe(parsed(original).contentHash)
  })
})

describe("schema problems", () => {
  it("reports every missing required key with the line of the nearest existing node", () => {
    const text = lines(
      /* 1 */ "StackOne: 1.0.0",
      /* 2 */ "info:",
      /* 3 */ "  title: Broken",
      /* 4 */ "  version: 1.0.0",
      /* 5 */ "actions:",
      /* 6 */ "  - actionType: list",
      /* 7 */ "    steps:",
      /* 8 */ "      - stepId: fetch",
      /* 9 */ "        stepFunction:",
      /* 10 */ "          functionName: request",
      /* 11 */ "          parameters:",
      /* 12 */ "            method: get"
    )
    const error = failure(text)
    expect(error.issues).toEqual([
      { path: "info.key", message: "required", line: 3, column: 3 },
      { path: "actions[0].actionId", message: "required", line: 6, column: 5 },
      { path: "actions[0].label", message: "required", line: 6, column: 5 },
      { path: "actions[0].steps[0].stepFunction.parameters.url", message: "required", line: 12, column: 13 }
    ])
    expect(error.message).toBe(
      "info.key: required (line 3, col 3); actions[0].actionId: required (line 6, col 5); " +
        "actions[0].label: required (line 6, col 5); " +
        "actions[0].steps[0].stepFunction.parameters.url: required (line 12, col 13)"
    )
  })

  it("reports missing top-level keys", () => {
    expect(issues("StackOne: 1.0.0\n")).toEqual([
      { path: "info", message: "required", line: 1, column: 1 },
      { path: "actions", message: "required", line: 1, column: 1 }
    ])
  })

  it("reports wrong types at the offending value", () => {
    const text = lines(
      /* 1 */ "StackOne: 2.0.0",
      /* 2 */ "info:",
      /* 3 */ "  title: 5",
      /* 4 */ "  key: ok",
      /* 5 */ "  version: 1.0.0",
      /* 6 */ "rateLimit:",
      /* 7 */ "  mainRatelimit: fast",
      /* 8 */ "actions:",
      /* 9 */ "  - actionId: a",
      /* 10 */ "    actionType: fetch",
      /* 11 */ "    label: A",
      /* 12 */ "    cursor: {enabled: 'yes'}",
      /* 13 */ "    categories: hris",
      /* 14 */ "    steps: nope"
    )
    expect(issues(text)).toEqual([
      { path: "StackOne", message: 'expected "1.0.0"', line: 1, column: 11 },
      { path: "info.title", message: "expected string", line: 3, column: 10 },
      { path: "rateLimit.mainRatelimit", message: "expected number", line: 7, column: 18 },
      {
        path: "actions[0].actionType",
        message: "expected one of list, get, create, update, delete, custom, refresh_token, test, event",
        line: 10,
        column: 17
      },
      { path: "actions[0].cursor.enabled", message: "expected boolean", line: 12, column: 23 },
      { path: "actions[0].categories", message: "expected array", line: 13, column: 17 },
      { path: "actions[0].steps", message: "expected array", line: 14, column: 12 }
    ])
  })

  it("rejects a document that is not a mapping", () => {
    expect(issues("- a\n- b\n")).toEqual([{ path: "", message: "expected object", line: 1, column: 1 }])
    expect(issues("")).toEqual([{ path: "", message: "expected object" }])
  })

  it("checks the parameters each step function requires", () => {
    const stepOf = (fn: string, parameters: string) => [
      `      - stepId: ${fn}`,
      "        stepFunction:",
      `          functionName: ${fn}`,
      `          parameters: ${parameters}`
    ]
    const found = issues(
      withActions(
        ...action("a", [
          ...stepOf("request", "{}"),
          ...stepOf("paginated_request", "{url: /x}"),
          ...stepOf("map_fields", "{}"),
          ...stepOf("typecast", "{}"),
          ...stepOf("static_values", "{}"),
          ...stepOf("group_data", "{}"),
          ...stepOf("mcp_request", "{}"),
          ...stepOf("download_file", "{}"),
          ...stepOf("teleport", "{}")
        ])
      )
    ).map((issue) => `${issue.path}: ${issue.message}`)
    expect(found).toEqual([
      "actions[0].steps[0].stepFunction.parameters.url: required",
      "actions[0].steps[0].stepFunction.parameters.method: required",
      "actions[0].steps[1].stepFunction.parameters.method: required",
      "actions[0].steps[2].stepFunction.parameters.dataSource: required",
      "actions[0].steps[3].stepFunction.parameters.dataSource: required",
      "actions[0].steps[4].stepFunction.parameters.values: required",
      "actions[0].steps[5].stepFunction.parameters.stepsDataToGroup: required",
      "actions[0].steps[6].stepFunction.parameters.method: required",
      "actions[0].steps[8].stepFunction.functionName: expected one of request, paginated_request, map_fields, " +
      "typecast, static_values, group_data, download_file, upload_file, mcp_request"
    ])
  })

  it("checks authentication methods and their authorization", () => {
    const text = lines(
      "StackOne: 1.0.0",
      "info: {title: T, key: t, version: 1.0.0}",
      "authentication:",
      "  - key:",
      "      type: custom",
      "      authorization: {type: apiKey, key: X-Api-Key, value: $.credentials.key}",
      "  - token:",
      "      type: magic",
      "      authorization: {type: cookie}",
      "  - one: {type: custom}",
      "    two: {type: custom}",
      "actions: []"
    )
    expect(issues(text).map((issue) => `${issue.path}: ${issue.message} @${issue.line}`)).toEqual([
      "authentication[0].key.authorization.in: required @6",
      "authentication[1].token.type: expected one of custom, oauth2 @8",
      "authentication[1].token.authorization.type: expected one of basic, bearer, apiKey, none, oauth2 @9",
      "authentication[2]: expected exactly one named method, found 2 @10"
    ])
  })

  it("rejects duplicate action ids, even alongside other problems", () => {
    const text = withActions(...action("same"), ...action("other"), ...action("same"))
    expect(issues(text)).toEqual([
      { path: "actions[2].actionId", message: 'duplicate actionId "same" (first at [0])', line: 15, column: 15 }
    ])
    const alsoBroken = text.replace("label: An action", "label: 1")
    expect(issues(alsoBroken).map((issue) => issue.path)).toEqual(["actions[0].label", "actions[2].actionId"])
  })

  it("rejects duplicate step ids within an action", () => {
    expect(issues(withActions(...action("a", [...step("s"), ...step("s")])))).toMatchObject([
      { path: "actions[0].steps[1].stepId", message: 'duplicate stepId "s" (first at [0])' }
    ])
  })

  it("rejects a version that is not semver", () => {
    const text = withActions(...action("a"))
    expect(issues(text.replace("version: 1.0.0", "version: banana"))).toEqual([
      { path: "info.version", message: '"banana" is not a valid semver version', line: 5, column: 12 }
    ])
    expect(issues(text.replace("version: 1.0.0", "version: 1.0"))).toMatchObject([
      { path: "info.version", message: "expected string" }
    ])
    expect(issues(text.replace("version: 1.0.0", "version: '1.0'"))).toMatchObject([
      { path: "info.version", message: '"1.0" is not a valid semver version' }
    ])
  })

  it("rejects a bad connector key", () => {
    const text = withActions(...action("a"))
    expect(issues(text.replace("key: test", "key: Acme HR"))).toEqual([
      {
        path: "info.key",
        message: "must match ^[a-z0-9_-]+$ (lowercase letters, digits, _ and -)",
        line: 4,
        column: 8
      }
    ])
    expect(issues(text.replace("key: test", `key: ${"a".repeat(101)}`))).toMatchObject([
      { path: "info.key", message: "must be at most 100 characters" }
    ])
    expect(parsed(text.replace("key: test", `key: ${"a".repeat(100)}`)).definition.info.key).toHaveLength(100)
  })
})

describe("expressions", () => {
  it("rejects a broken JEXL expression with its path and line", () => {
    const text = withActions(...action("a", step("s", ["        condition: '{{ a + }}'"])))
    const [issue, ...rest] = issues(text)
    expect(rest).toEqual([])
    expect(issue).toMatchObject({ path: "actions[0].steps[0].condition", line: 12, column: 20 })
    expect(issue!.message).toContain("invalid JEXL")
  })

  it("rejects a misspelt helper with its path, when the connector loads", () => {
    const text = withActions(...action("a", step("s", ["        condition: '{{ presnt(inputs.id) }}'"])))
    const [issue, ...rest] = issues(text)
    expect(rest).toEqual([])
    expect(issue).toMatchObject({ path: "actions[0].steps[0].condition", line: 12 })
    expect(issue!.message).toContain('unknown helper "presnt"')
  })

  it("rejects a broken JSONPath", () => {
    const text = withActions(...action("a", [
      "      - stepId: m",
      "        stepFunction:",
      "          functionName: map_fields",
      "          parameters:",
      "            dataSource: $.steps.fetch.output.[",
      "            fields:",
      "              - targetFieldKey: id",
      "                expression: $..[?("
    ]))
    expect(issues(text)).toMatchObject([
      { path: "actions[0].steps[0].stepFunction.parameters.dataSource", line: 15, column: 25 },
      { path: "actions[0].steps[0].stepFunction.parameters.fields[0].expression", line: 18, column: 29 }
    ])
    expect(issues(text)[0]!.message).toContain("invalid JSONPath")
  })

  it("rejects a broken interpolation", () => {
    const text = withActions(...action("a", [
      "      - stepId: r",
      "        stepFunction:",
      "          functionName: request",
      "          parameters:",
      "            url: /users/${unterminated",
      "            method: get"
    ]))
    expect(issues(text)).toEqual([
      {
        path: "actions[0].steps[0].stepFunction.parameters.url",
        message: "unterminated ${ at character 8",
        line: 15,
        column: 18
      }
    ])
  })

  it("checks field configs, enum matchers, args, results and baseUrl", () => {
    const text = lines(
      "StackOne: 1.0.0",
      "info: {title: T, key: t, version: 1.0.0}",
      "baseUrl: https://${credentials.}/",
      "actions:",
      "  - actionId: a",
      "    actionType: list",
      "    label: A",
      "    fieldConfigs:",
      "      - targetFieldKey: x",
      "        expression: $.",
      "        enumMapper:",
      "          matcher:",
      "            - {matchExpression: '{{ == 1 }}', value: y}",
      "    steps:",
      "      - stepId: r",
      "        stepFunction:",
      "          functionName: request",
      "          parameters:",
      "            url: /x",
      "            method: get",
      "            args:",
      "              - {name: q, value: '{{ ( }}', in: query, condition: '$.a['}",
      "    result:",
      "      data: {nested: ['$.ok', '$.b]']}"
    )
    expect(issues(text).map((issue) => issue.path)).toEqual([
      "baseUrl",
      "actions[0].fieldConfigs[0].expression",
      "actions[0].fieldConfigs[0].enumMapper.matcher[0].matchExpression",
      "actions[0].steps[0].stepFunction.parameters.args[0].value",
      "actions[0].steps[0].stepFunction.parameters.args[0].condition",
      "actions[0].result.data.nested[1]"
    ])
  })

  it("reports schema and expression problems together", () => {
    const text = withActions(...action("a", step("s", ["        condition: '{{ a + }}'"])))
      .replace("title: Test", "title: [1]")
    expect(issues(text).map((issue) => issue.path)).toEqual(["info.title", "actions[0].steps[0].condition"])
  })
})

describe("YAML and limits", () => {
  it("rejects YAML syntax errors with their line", () => {
    const found = issues(lines("StackOne: 1.0.0", "info:", "  title: [unclosed", "  key: x", "actions: []"))
    expect(found.length).toBeGreaterThan(0)
    expect(found[0]!.message).toMatch(/^YAML: /)
    expect(found[0]!.line).toBeGreaterThanOrEqual(3)
    expect(issues("a: 1\na: 2\n")).toMatchObject([{ path: "", message: "YAML: Map keys must be unique", line: 2 }])
    expect(issues("a: 1\n---\nb: 2\n")[0]).toMatchObject({ message: "YAML: more than one document", line: 2 })
    expect(issues("? [a, b]\n: c\n")[0]!.message).toContain("keys must be strings")
    expect(issues("a: 1\nb: !include other.yaml\n")).toEqual([
      { path: "", message: "YAML: Unresolved tag: !include", line: 2, column: 4 }
    ])
  })

  it("supports << merge keys", () => {
    const text = withActions(
      "  - &base",
      "    actionId: a",
      "    actionType: get",
      "    label: A",
      "    steps: []",
      "  - <<: *base",
      "    actionId: b"
    )
    expect(parsed(text).definition.actions.map((a) => [a.actionId, a.label])).toEqual([["a", "A"], ["b", "A"]])
  })

  it("rejects a document over maxBytes before parsing it", () => {
    const big = withActions(...action("a")) + `# ${"x".repeat(defaultParseLimits.maxBytes)}\n`
    expect(issues(big)).toEqual([
      { path: "", message: `document is ${Buffer.byteLength(big)} bytes; at most 524288 allowed (maxBytes)` }
    ])
    expect(issues(withActions(...action("a")), { maxBytes: 100 })[0]!.message).toContain("(maxBytes)")
  })

  it("rejects nesting deeper than maxDepth", () => {
    const deep = (levels: number) => withActions(...action("a"), `    x: ${"[".repeat(levels)}1${"]".repeat(levels)}`)
    // the action mapping is at depth 3, so 61 more levels reach the default limit of 64
    expect(parsed(deep(61)).definition.actions).toHaveLength(1)
    expect(issues(deep(62))).toEqual([{
      path: `actions[0].x${"[0]".repeat(61)}`,
      message: "nested deeper than 64 levels (maxDepth)",
      line: 11,
      column: 69
    }])
    expect(issues(deep(3), { maxDepth: 5 })[0]!.message).toBe("nested deeper than 5 levels (maxDepth)")
    // far beyond what yaml's recursive composer survives: rejected on the CST, no crash
    expect(issues(`a: ${"[".repeat(200_000)}`)[0]!.message).toContain("(maxDepth)")
    const block = Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}k:`).join("\n") + " 1\n"
    expect(issues(block)[0]!.message).toContain("(maxDepth)")
  })

  it("rejects an alias bomb", () => {
    const bomb = lines(
      "StackOne: 1.0.0",
      "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
      "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]",
      "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]",
      "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]",
      "actions: *i"
    )
    const [issue, ...rest] = issues(bomb)
    expect(rest).toEqual([])
    expect(issue!.message).toContain("(maxAliasCount 100)")
  })

  it("rejects aliases that expand past maxNodes and circular aliases", () => {
    const wide = lines(
      "StackOne: 1.0.0",
      `list: &l [${Array.from({ length: 5000 }, () => "1").join(", ")}]`,
      `copies: [${Array.from({ length: 50 }, () => "*l").join(", ")}]`
    )
    expect(issues(wide)[0]!.message).toBe("more than 200000 values after expanding aliases")
    expect(issues("a: &x [1, *x]\n")[0]!.message).toBe("nested deeper than 64 levels (maxDepth)")
  })

  it("rejects too many actions or steps", () => {
    const four = withActions(...action("a"), ...action("b"), ...action("c"), ...action("d"))
    expect(issues(four, { maxActions: 3 })).toEqual([
      { path: "actions", message: "4 actions; at most 3 allowed (maxActions)", line: 7, column: 3 }
    ])
    const many = withActions(...Array.from({ length: 501 }, (_, i) => action(`a${i}`)).flat())
    expect(issues(many)[0]!.message).toBe("501 actions; at most 500 allowed (maxActions)")
    const steps = withActions(...action("a", [...step("s1"), ...step("s2"), ...step("s3")]))
    expect(issues(steps, { maxStepsPerAction: 2 })).toMatchObject([
      { path: "actions[0].steps", message: "3 steps; at most 2 allowed (maxStepsPerAction)" }
    ])
  })
})

describe("ConnectorParseError", () => {
  it("is a tagged error whose message lists at most 20 issues", () => {
    const text = withActions(...Array.from({ length: 30 }, (_, i) => [`  - actionId: a${i}`, "    steps: []"]).flat())
    const error = failure(text)
    expect(error).toBeInstanceOf(ConnectorParseError)
    expect(error).toBeInstanceOf(Error)
    expect(error._tag).toBe("ConnectorParseError")
    expect(error.issues).toHaveLength(60)
    expect(error.message.split("; ")).toHaveLength(21)
    expect(error.message).toMatch(/; \.\.\. and 40 more$/)
  })
})
