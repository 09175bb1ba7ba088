import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import {
  ActionDefinitionError,
  parseConnector,
  planAction,
  ProviderTransportError,
  type RunContext,
  runAction
} from "../src/index.js"
import { connector, dedent, type FakeHandler, fakeTransport, json } from "./support/fakeTransport.js"

/*
 * Named servers (`servers:` beside `baseUrl`, chosen per step with `parameters.server`) and XML
 * answers (`response.format: xml`), as a career-site feed on its own host needs them.
 */

const credentials = { company: "acme", token: "tok-abcdef123" }

const xml = (body: string, status = 200) => ({ status, headers: { "content-type": "application/xml" }, body })

const feed = connector(dedent`
  StackOne: 1.0.0
  info:
    title: Feed
    key: feed
    version: 1.0.0
  baseUrl: https://api.example.com
  servers:
    career_site:
      url: https://\${credentials.company}.jobs.example.com
      authentication: none
    reports:
      url: https://reports.example.com/v2
  authentication:
    - token:
        type: custom
        authorization:
          type: bearer
          token: $.credentials.token
  actions:
    - actionId: list_positions
      actionType: list
      label: Positions
      steps:
        - stepId: fetch
          stepFunction:
            functionName: request
            parameters:
              server: career_site
              url: /xml
              method: get
              args:
                - name: language
                  value: en
                  in: query
                - name: X-Company-ID
                  value: $.credentials.company
                  in: headers
              response:
                format: xml
                arrays: [position, jobDescription]
                dataKey: workzag-jobs.position
      result:
        data: '{{steps.fetch.output.data}}'
    - actionId: get_position
      actionType: get
      label: Position
      inputs:
        - name: id
          type: string
          in: path
          required: true
      steps:
        - stepId: fetch
          stepFunction:
            functionName: request
            parameters:
              server: career_site
              url: /xml
              method: get
              response:
                format: xml
                arrays: [position]
              customErrors:
                - receivedStatus: 200
                  targetStatus: 404
                  condition: '{{length(response.body["workzag-jobs"].position[.id == inputs.id]) == 0}}'
                  message: No such position
      result:
        data: '{{steps.fetch.output.data["workzag-jobs"].position[.id == inputs.id][0]}}'
    - actionId: report
      actionType: get
      label: Report
      steps:
        - stepId: fetch
          stepFunction:
            functionName: request
            parameters:
              server: reports
              url: '\${inputs.where}'
              method: get
    - actionId: employees
      actionType: list
      label: Employees
      steps:
        - stepId: fetch
          stepFunction:
            functionName: request
            parameters:
              url: /employees
              method: get
`)

const run = (actionId: string, inputs: Record<string, unknown>, handler: FakeHandler, context: Partial<RunContext> = {}) => {
  const transport = fakeTransport(handler)
  return {
    effect: runAction(feed, actionId, inputs, { credentials, ...context }).pipe(Effect.provide(transport.layer)),
    requests: transport.requests
  }
}

const POSITIONS = `<?xml version="1.0" encoding="UTF-8"?>
<workzag-jobs>
  <position>
    <id>0042</id>
    <office>Munich</office>
    <name>Office &amp; Feelgood Manager</name>
    <jobDescriptions>
      <jobDescription>
        <name>Beschreibung</name>
        <value><![CDATA[ <p>Für unser <strong>Büro</strong></p> ]]></value>
      </jobDescription>
    </jobDescriptions>
  </position>
  <position lang="en">
    <id>7</id>
    <office>Berlin</office>
    <name>Engineer</name>
    <jobDescriptions/>
  </position>
</workzag-jobs>`

describe("named servers", () => {
  it.effect("sends a step to its server, relative to that server's URL, without credentials when it is public", () =>
    Effect.gen(function*() {
      const { effect, requests } = run("list_positions", {}, () => xml(POSITIONS))
      yield* effect
      expect(requests).toHaveLength(1)
      expect(requests[0]!.url).toBe("https://acme.jobs.example.com/xml?language=en")
      // the step's own header goes, the account's token does not
      expect(requests[0]!.headers["x-company-id"]).toBe("acme")
      expect(requests[0]!.headers.authorization).toBeUndefined()
    }))

  it.effect("sends the account's credentials to a server that does not say otherwise, and the base URL's steps still go to the base URL", () =>
    Effect.gen(function*() {
      const report = run("report", { where: "/totals?year=2026" }, () => json({ total: 3 }))
      expect((yield* report.effect).data).toEqual({ total: 3 })
      expect(report.requests[0]!.url).toBe("https://reports.example.com/v2/totals?year=2026")
      expect(report.requests[0]!.headers.authorization).toBe("Bearer tok-abcdef123")
      const employees = run("employees", {}, () => json([]))
      yield* employees.effect
      expect(employees.requests[0]!.url).toBe("https://api.example.com/employees")
    }))

  it.effect("takes the caller's replacement for a server's URL (an account's <name>_base_url setting)", () =>
    Effect.gen(function*() {
      const { effect, requests } = run("list_positions", {}, () => xml(POSITIONS), {
        servers: { career_site: "http://127.0.0.1:9999/feed" }
      })
      yield* effect
      expect(requests[0]!.url).toBe("http://127.0.0.1:9999/feed/xml?language=en")
    }))

  it.effect("refuses a computed absolute URL off the step's server, sending nothing", () =>
    Effect.gen(function*() {
      const { effect, requests } = run("report", { where: "https://evil.example.net/steal" }, () => json({}))
      const error = yield* Effect.flip(effect)
      expect(error).toBeInstanceOf(ActionDefinitionError)
      expect(error.message).toContain("outside the server the step calls")
      expect(requests).toHaveLength(0)
    }))

  it("refuses a step naming a server the connector does not declare, and a badly named server", () => {
    const text = dedent`
      StackOne: 1.0.0
      info:
        title: T
        key: t
        version: 1.0.0
      baseUrl: https://api.example.com
      servers:
        feed:
          url: https://feed.example.com
      actions:
        - actionId: a
          actionType: get
          label: A
          steps:
            - stepId: s
              stepFunction:
                functionName: request
                parameters:
                  server: fed
                  url: /x
                  method: get
    `
    const planned = planAction(connector(text), "a")
    expect(Either.isLeft(planned)).toBe(true)
    if (Either.isLeft(planned)) {
      expect(planned.left.message).toBe(`step "s" names server "fed", which the connector's servers do not declare (it declares feed)`)
      expect(planned.left.path).toBe("actions[0].steps[0].stepFunction.parameters.server")
    }
    const badName = parseConnector(text.replace("  feed:\n", "  Feed-Site:\n"))
    expect(Either.isLeft(badName)).toBe(true)
    if (Either.isLeft(badName)) expect(badName.left.message).toContain("a server name is lower case letters, digits and _")
  })
})

describe("XML answers", () => {
  it.effect("reads elements as keys and text as text, CDATA as its text (spaces kept), entities decoded, declared elements always lists", () =>
    Effect.gen(function*() {
      const { effect } = run("list_positions", {}, () => xml(POSITIONS))
      const { data } = yield* effect
      expect(data).toEqual([
        {
          id: "0042",
          office: "Munich",
          name: "Office & Feelgood Manager",
          jobDescriptions: { jobDescription: [{ name: "Beschreibung", value: " <p>Für unser <strong>Büro</strong></p> " }] }
        },
        { "@_lang": "en", id: "7", office: "Berlin", name: "Engineer", jobDescriptions: "" }
      ])
    }))

  it.effect("keeps a declared element a list when the feed has only one", () =>
    Effect.gen(function*() {
      const one = `<workzag-jobs><position><id>1</id><name>Only</name></position></workzag-jobs>`
      const { data } = yield* run("list_positions", {}, () => xml(one)).effect
      expect(data).toEqual([{ id: "1", name: "Only" }])
    }))

  it.effect("lets customErrors and the result read the parsed tree (a get picked from the feed, 404 when absent)", () =>
    Effect.gen(function*() {
      const found = yield* run("get_position", { id: "7" }, () => xml(POSITIONS)).effect
      expect(found.data).toMatchObject({ id: "7", name: "Engineer" })
      const error = yield* Effect.flip(run("get_position", { id: "8" }, () => xml(POSITIONS)).effect)
      expect(error).toMatchObject({ _tag: "CustomProviderError", targetStatus: 404, message: "No such position" })
    }))

  it.effect("answers 502 (invalid_response) for a 2xx that is not well-formed XML, or is JSON", () =>
    Effect.gen(function*() {
      const broken = yield* Effect.flip(run("list_positions", {}, () => xml("<workzag-jobs><position></workzag-jobs>")).effect)
      expect(broken).toBeInstanceOf(ProviderTransportError)
      expect(broken).toMatchObject({ reason: "invalid_response" })
      expect(broken.message).toMatch(/^feed answered 200 with XML that is not well-formed: .+ \(line 1\) \(step "fetch" reads XML\)$/)
      const asJson = yield* Effect.flip(run("list_positions", {}, () => json({ positions: [] })).effect)
      expect(asJson.message).toBe(`feed answered 200 with JSON, not XML (step "fetch" reads XML)`)
    }))

  it.effect("refuses nesting deeper than the bound, and never expands entities past their limits", () =>
    Effect.gen(function*() {
      const deep = "<a>".repeat(200) + "x" + "</a>".repeat(200)
      const tooDeep = yield* Effect.flip(run("list_positions", {}, () => xml(deep)).effect)
      expect(tooDeep).toMatchObject({ _tag: "ProviderTransportError", reason: "invalid_response" })
      expect(tooDeep.message).toContain("XML that could not be read")
      const entities = Array.from({ length: 10 }, (_, i) =>
        `<!ENTITY e${i + 1} "${`&e${i};`.repeat(10)}">`).join("")
      const bomb = `<?xml version="1.0"?><!DOCTYPE workzag-jobs [<!ENTITY e0 "ha">${entities}]><workzag-jobs><position><id>&e10;</id></position></workzag-jobs>`
      // 10^10 characters if expanded: refused, or left unexpanded, never built
      const exploded = yield* Effect.either(run("list_positions", {}, () => xml(bomb)).effect)
      if (Either.isLeft(exploded)) expect(exploded.left).toMatchObject({ _tag: "ProviderTransportError", reason: "invalid_response" })
      else expect(JSON.stringify(exploded.right.data).length).toBeLessThan(200)
    }))

  it.effect("leaves a non-2xx body that is not XML as it came, for the provider's error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run("list_positions", {}, () => ({ status: 503, headers: {}, body: "down for maintenance" })).effect)
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 503, body: "down for maintenance" })
    }))

  it("refuses an unknown response.format, and arrays without xml", () => {
    const withResponse = (response: string) =>
      planAction(
        connector(dedent`
          StackOne: 1.0.0
          info:
            title: T
            key: t
            version: 1.0.0
          baseUrl: https://api.example.com
          actions:
            - actionId: a
              actionType: get
              label: A
              steps:
                - stepId: s
                  stepFunction:
                    functionName: request
                    parameters:
                      url: /x
                      method: get
                      response: ${response}
        `),
        "a"
      )
    const yamlFormat = withResponse("{format: yaml}")
    expect(Either.isLeft(yamlFormat) && yamlFormat.left.message).toBe(`response.format must be json or xml, not "yaml"`)
    const arrays = withResponse("{arrays: [a]}")
    expect(Either.isLeft(arrays) && arrays.left.message).toBe("response.arrays applies to response.format: xml only")
  })
})

