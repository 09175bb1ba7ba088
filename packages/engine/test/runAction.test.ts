import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Either, Exit, Fiber, Stream, TestClock } from "effect"
import { readFileSync } from "node:fs"
import {
  ActionDefinitionError,
  FileDownload,
  MCP_PROTOCOL_VERSION,
  type ProviderRequest,
  ProviderTransportError,
  type ParsedConnector,
  planAction,
  type RunContext,
  runAction,
  StreamedBody,
  TokenCache,
  UNMAPPED_ENUM_VALUE
} from "../src/index.js"
import { connector, dedent, type FakeHandler, fakeTransport, json } from "./support/fakeTransport.js"

const credentials = { subdomain: "acme", apiKey: "key-123456", token: "tok-abcdef" }

const run = (
  parsed: ParsedConnector,
  actionId: string,
  inputs: Record<string, unknown>,
  handler: FakeHandler,
  context: Partial<RunContext> = {}
) => {
  const transport = fakeTransport(handler)
  const effect = runAction(parsed, actionId, inputs, { credentials, ...context }).pipe(Effect.provide(transport.layer))
  return { effect, requests: transport.requests }
}

const succeed = (parsed: ParsedConnector, actionId: string, inputs: Record<string, unknown>, handler: FakeHandler, context: Partial<RunContext> = {}) => {
  const { effect, requests } = run(parsed, actionId, inputs, handler, context)
  return Effect.map(effect, (output) => ({ output, requests }))
}

const failWith = (parsed: ParsedConnector, actionId: string, inputs: Record<string, unknown>, handler: FakeHandler, context: Partial<RunContext> = {}) => {
  const { effect, requests } = run(parsed, actionId, inputs, handler, context)
  return Effect.map(Effect.flip(effect), (error) => ({ error, requests }))
}

// ---- connectors -------------------------------------------------------------------

const hr = connector(dedent`
  StackOne: 1.0.0
  info:
    title: HR
    key: hr
    version: 1.0.0
  baseUrl: https://\${credentials.subdomain}.example.com/api
  authentication:
    - basic_auth:
        type: custom
        authorization:
          type: basic
          username: $.credentials.apiKey
          password: x
  actions:
    - actionId: list_employees
      actionType: list
      label: List employees
      inputs:
        - name: page_size
          type: number
          in: query
        - name: cursor
          type: string
          in: query
        - name: filter_updated_after
          type: datetime_string
          in: query
      fieldConfigs:
        - targetFieldKey: id
          expression: $.fetch.id
          type: string
        - targetFieldKey: name
          expression: '{{$.fetch.first + " " + $.fetch.last}}'
          type: string
        - targetFieldKey: status
          type: enum
          expression: $.fetch.state
          enumMapper:
            matcher:
              - matchExpression: '{{$.fetch.state == "Active"}}'
                value: active
              - matchExpression: '{{$.fetch.state == "Gone"}}'
                value: terminated
        - targetFieldKey: start_date
          expression: $.fetch.started
          type: datetime_string
      steps:
        - stepId: fetch
          stepFunction:
            functionName: paginated_request
            parameters:
              url: /employees
              method: get
              args:
                - name: limit
                  value: $.inputs.page_size
                  in: query
                - name: updated_since
                  value: $.inputs.filter_updated_after
                  in: query
                  condition: '{{present(inputs.filter_updated_after)}}'
              response:
                dataKey: items
                nextKey: meta.next
              iterator:
                key: cursor
                in: query
        - stepId: map
          stepFunction:
            functionName: map_fields
            version: '2'
            parameters:
              dataSource: $.steps.fetch.output.data
        - stepId: cast
          stepFunction:
            functionName: typecast
            version: '2'
            parameters:
              dataSource: $.steps.map.output.data
      result:
        data: $.steps.cast.output.data
        next: $.steps.fetch.output.next

    - actionId: get_employee
      actionType: get
      label: Get employee
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
              url: /employees/\${inputs.id}
              method: get
              args:
                - name: Accept
                  value: application/json
                  in: headers
              response:
                dataKey: data
              customErrors:
                - receivedStatus: 400
                  targetStatus: 404
                  message: 'Employee \${inputs.id} not found'
                  condition: '{{$.response.body.code == "not_found"}}'
                - receivedStatus: 200
                  targetStatus: 502
                  message: provider reported a failure
                  condition: '{{response.body.ok == false}}'
      result:
        data: $.steps.fetch.output.data

    - actionId: create_employee
      actionType: create
      label: Create employee
      inputs:
        - name: body
          type: object
          in: body
          required: true
        - name: notify
          type: boolean
          in: query
      steps:
        - stepId: defaults
          stepFunction:
            functionName: static_values
            parameters:
              values:
                source: switchyard
                tags: [a, b]
        - stepId: create
          condition: '{{missing(inputs.body.id)}}'
          stepFunction:
            functionName: request
            parameters:
              url: /employees
              method: post
              args:
                - name: first_name
                  value: $.inputs.body.first_name
                  in: body
                - name: nickname
                  value: $.inputs.body.nickname
                  in: body
                - name: source
                  value: $.steps.defaults.output.data.source
                  in: body
                - name: notify
                  value: $.inputs.notify
                  in: query
                  condition: '{{inputs.notify == true}}'
      result:
        data:
          id: $.steps.create.output.data.id
          source: $.steps.defaults.output.data.source
          echoed: '\${inputs.body.first_name}-\${steps.create.output.data.id}'
          missing: $.steps.create.output.data.nothing
`)

const provider: FakeHandler = (request, url) => {
  if (url.pathname === "/api/employees" && request.method === "GET") {
    const cursor = url.searchParams.get("cursor")
    const pages: Record<string, unknown> = {
      "": { items: [{ id: 1, first: "Ada", last: "L", state: "Active", started: "2024-01-15" }], meta: { next: "p2" } },
      p2: { items: [{ id: 2, first: "Bob", last: "M", state: "Gone", started: "2024-01-15T10:00:00+02:00" }], meta: { next: "p3" } },
      p3: { items: [{ id: 3, first: "Cy", last: "N", state: "Weird", started: null }], meta: { next: null } }
    }
    return json(pages[cursor ?? ""] ?? { items: [] })
  }
  if (url.pathname.startsWith("/api/employees/") && request.method === "GET") {
    const id = decodeURIComponent(url.pathname.slice("/api/employees/".length))
    if (id === "missing") return json({ code: "not_found" }, 400)
    if (id === "broken") return json({ code: "other", echo: "key-123456" }, 400)
    if (id === "soft-fail") return json({ ok: false })
    return json({ data: { id, name: "Ada" } })
  }
  if (url.pathname === "/api/employees" && request.method === "POST") return json({ id: "new-1" }, 201)
  return json({ message: "no route" }, 404)
}

const basicHeader = `Basic ${Buffer.from("key-123456:x").toString("base64")}`

// ---- requests ---------------------------------------------------------------------

describe("runAction: request", () => {
  it.effect("interpolates the base URL and path, applies basic auth, headers and dataKey", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(hr, "get_employee", { id: "a/b 1" }, provider)
      expect(output).toEqual({ data: { id: "a/b 1", name: "Ada" }, next: undefined })
      expect(requests).toHaveLength(1)
      const [request] = requests
      expect(request!.method).toBe("GET")
      // a path value is encoded: it cannot climb out of its segment
      expect(request!.url).toBe("https://acme.example.com/api/employees/a%2Fb%201")
      expect(request!.headers).toMatchObject({ authorization: basicHeader, accept: "application/json" })
      expect(request!.body).toBeUndefined()
    }))

  it.effect("builds a JSON body from body args, skipping undefined values and false conditions", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(hr, "create_employee", { body: { first_name: "Ada" }, notify: "false" }, provider)
      expect(requests).toHaveLength(1)
      expect(requests[0]!.method).toBe("POST")
      expect(requests[0]!.url).toBe("https://acme.example.com/api/employees")
      expect(requests[0]!.body).toEqual({ _tag: "Json", value: { first_name: "Ada", source: "switchyard" } })
      expect(output.data).toEqual({ id: "new-1", source: "switchyard", echoed: "Ada-new-1" })

      const withNotify = yield* succeed(hr, "create_employee", { body: { first_name: "Ada" }, notify: "true" }, provider)
      expect(withNotify.requests[0]!.url).toBe("https://acme.example.com/api/employees?notify=true")
    }))

  it.effect("skips a step whose condition is false; later reads of it see nothing", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(hr, "create_employee", { body: { id: "exists", first_name: "Ada" } }, provider)
      expect(requests).toHaveLength(0)
      expect(output.data).toEqual({ source: "switchyard", echoed: "Ada-" })
    }))

  it.effect("maps statuses through customErrors, with conditions on the response", () =>
    Effect.gen(function*() {
      const missing = yield* failWith(hr, "get_employee", { id: "missing" }, provider)
      expect(missing.error).toMatchObject({
        _tag: "CustomProviderError",
        targetStatus: 404,
        receivedStatus: 400,
        message: "Employee missing not found"
      })
      const soft = yield* failWith(hr, "get_employee", { id: "soft-fail" }, provider)
      expect(soft.error).toMatchObject({ _tag: "CustomProviderError", targetStatus: 502, receivedStatus: 200 })
    }))

  it.effect("fails with ProviderHttpError on other non-2xx answers, secrets redacted", () =>
    Effect.gen(function*() {
      const { error } = yield* failWith(hr, "get_employee", { id: "broken" }, provider)
      expect(error._tag).toBe("ProviderHttpError")
      if (error._tag !== "ProviderHttpError") return
      expect(error.status).toBe(400)
      // the connector declares no fields, so every credential value is a secret, the subdomain included
      expect(error.url).toBe("https://[REDACTED].example.com/api/employees/broken")
      expect(error.body).toEqual({ code: "other", echo: "[REDACTED]" })
      expect(JSON.stringify(error)).not.toContain("key-123456")
    }))

  it.effect("passes ProviderTransportError through unchanged", () =>
    Effect.gen(function*() {
      const failure = new ProviderTransportError({ reason: "unreachable", message: "connection refused", url: "https://acme.example.com/api/employees/1" })
      const { error } = yield* failWith(hr, "get_employee", { id: "1" }, () => Effect.fail(failure))
      expect(error).toBe(failure)
    }))

  it.effect("a RunContext baseUrl replaces the connector's", () =>
    Effect.gen(function*() {
      const { requests } = yield* succeed(hr, "get_employee", { id: "7" }, provider, { baseUrl: "https://eu.example.com/api/" })
      expect(requests[0]!.url).toBe("https://eu.example.com/api/employees/7")
    }))
})

// ---- pagination and mapping -------------------------------------------------------

describe("runAction: paginated_request and mapping", () => {
  it.effect("follows the cursor until exhausted, maps through fieldConfigs with enums and typecasts", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(hr, "list_employees", { page_size: "2" }, provider)
      expect(requests.map((request) => request.url)).toEqual([
        "https://acme.example.com/api/employees?limit=2",
        "https://acme.example.com/api/employees?limit=2&cursor=p2",
        "https://acme.example.com/api/employees?limit=2&cursor=p3"
      ])
      expect(output.next).toBeUndefined()
      expect(output.data).toEqual([
        { id: "1", name: "Ada L", status: { value: "active", source_value: "Active" }, start_date: "2024-01-15T00:00:00.000Z" },
        { id: "2", name: "Bob M", status: { value: "terminated", source_value: "Gone" }, start_date: "2024-01-15T08:00:00.000Z" },
        { id: "3", name: "Cy N", status: { value: UNMAPPED_ENUM_VALUE, source_value: "Weird" }, start_date: null }
      ])
    }))

  it.effect("starts from inputs.cursor and stops at maxPages, answering the provider cursor as next", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(hr, "list_employees", { cursor: "p2" }, provider, { limits: { maxPages: 1 } })
      expect(requests.map((request) => request.url)).toEqual(["https://acme.example.com/api/employees?cursor=p2"])
      expect(output.next).toBe("p3")
      expect((output.data as Array<{ id: string }>).map((record) => record.id)).toEqual(["2"])
    }))

  it.effect("passes a present filter through its condition", () =>
    Effect.gen(function*() {
      const { requests } = yield* succeed(hr, "list_employees", { filter_updated_after: "2024-02-01T00:00:00Z" }, provider)
      expect(requests[0]!.url).toBe("https://acme.example.com/api/employees?updated_since=2024-02-01T00%3A00%3A00Z")
    }))

  const looping = connector(dedent`
    StackOne: 1.0.0
    info:
      title: Loop
      key: loop
      version: 1.0.0
    baseUrl: https://api.example.com
    actions:
      - actionId: list
        actionType: list
        label: List
        steps:
          - stepId: fetch
            stepFunction:
              functionName: paginated_request
              parameters:
                url: /things
                method: get
                maxPages: 3
                response:
                  dataKey: $.data
                  nextKey: '{{$.paging.after ?? $.paging.next_url}}'
                iterator:
                  key: after
                  in: query
      - actionId: list_links
        actionType: list
        label: List by links
        steps:
          - stepId: fetch
            stepFunction:
              functionName: paginated_request
              parameters:
                url: /things
                method: get
                response:
                  dataKey: data
                  nextKey: links.next
  `)

  it.effect("a step's own maxPages caps the pages; a repeated cursor ends the loop", () =>
    Effect.gen(function*() {
      let counter = 0
      const endless = yield* succeed(looping, "list", {}, () => json({ data: [++counter], paging: { after: `c${counter}` } }))
      expect(endless.requests).toHaveLength(3)
      expect(endless.output).toEqual({ data: [1, 2, 3], next: "c3" })

      const stuck = yield* succeed(looping, "list", {}, () => json({ data: ["x"], paging: { after: "same" } }))
      expect(stuck.requests).toHaveLength(2)
      expect(stuck.output.next).toBeUndefined()
    }))

  it.effect("follows next links on the same origin and refuses others", () =>
    Effect.gen(function*() {
      const ok = yield* succeed(looping, "list_links", {}, (_, url) =>
        url.searchParams.get("page") === "2"
          ? json({ data: [2], links: {} })
          : json({ data: [1], links: { next: "https://api.example.com/things?page=2" } }))
      expect(ok.output.data).toEqual([1, 2])
      expect(ok.requests[1]!.url).toBe("https://api.example.com/things?page=2")

      const evil = yield* failWith(looping, "list_links", {}, () => json({ data: [1], links: { next: "https://evil.example.net/steal" } }))
      expect(evil.error._tag).toBe("ActionDefinitionError")
      expect(evil.requests).toHaveLength(1)
    }))

  const mapping = connector(dedent`
    StackOne: 1.0.0
    info:
      title: Map
      key: map
      version: 1.0.0
    baseUrl: https://api.example.com
    actions:
      - actionId: list
        actionType: list
        label: List
        steps:
          - stepId: fetch
            stepFunction:
              functionName: request
              parameters:
                url: /people
                method: get
          - stepId: map
            stepFunction:
              functionName: map_fields
              version: '2'
              parameters:
                dataSource: $.steps.fetch.output.data.people
                fields:
                  - targetFieldKey: id
                    expression: $.id
                    type: string
                  - targetFieldKey: email
                  - targetFieldKey: emails
                    expression: $.email
                    type: string
                    array: true
                  - targetFieldKey: manager.id
                    expression: $.manager_id
                    type: string
                  - targetFieldKey: age
                    expression: $.age
                    type: number
                  - targetFieldKey: active
                    expression: $.active
                    type: boolean
                  - targetFieldKey: tags
                    expression: $.labels[*].name
                    array: true
                  - targetFieldKey: country
                    expression: $.country
                    type: enum
                    enumMapper:
                      matcher: country_alpha2code_by_alpha2code
                  - targetFieldKey: account
                    expression: $.inputs.account
                  - targetFieldKey: from_step
                    expression: $.fetch.id
          - stepId: cast
            stepFunction:
              functionName: typecast
              version: '2'
              parameters:
                dataSource: $.steps.map.output.data
                fields:
                  - targetFieldKey: age
                    type: string
                  - targetFieldKey: created
                    type: datetime_string
  `)

  it.effect("maps inline fields: defaults, arrays, nested targets, coercions, context reads", () =>
    Effect.gen(function*() {
      const people = [
        { id: 7, email: "a@x.io", manager_id: 3, age: "41", active: "true", labels: [{ name: "x" }, { name: "y" }], country: "FR" },
        { id: 8, age: "n/a", active: 0, labels: [], created: 1_700_000_000 }
      ]
      const { output } = yield* succeed(mapping, "list", { account: "acc-1" }, () => json({ people }))
      expect(output.data).toEqual([
        {
          id: "7",
          email: "a@x.io",
          emails: ["a@x.io"],
          manager: { id: "3" },
          age: "41",
          active: true,
          tags: ["x", "y"],
          country: { value: "FR", source_value: "FR" },
          account: "acc-1",
          from_step: 7
        },
        { id: "8", age: null, active: false, account: "acc-1", from_step: 8 }
      ])
    }))
})

// ---- other step functions ---------------------------------------------------------

describe("runAction: other step functions", () => {
  const misc = connector(dedent`
    StackOne: 1.0.0
    info:
      title: Misc
      key: misc
      version: 1.0.0
    baseUrl: https://api.example.com
    actions:
      - actionId: grouped
        actionType: custom
        label: Grouped
        steps:
          - stepId: people
            stepFunction:
              functionName: static_values
              parameters:
                values:
                  list: [{ id: 1 }, { id: 2 }]
          - stepId: team
            stepFunction:
              functionName: static_values
              parameters:
                values:
                  name: core
          - stepId: zipped
            stepFunction:
              functionName: group_data
              parameters:
                stepsDataToGroup: [people, team]
          - stepId: single
            stepFunction:
              functionName: group_data
              parameters:
                stepsDataToGroup: [people, team]
                isSingleRecord: true
        result:
          data:
            zipped: $.steps.zipped.output.data
            single: $.steps.single.output.data
      - actionId: tolerant
        actionType: custom
        label: Tolerant
        steps:
          - stepId: flaky
            ignoreError: true
            stepFunction:
              functionName: request
              parameters:
                url: /flaky
                method: get
          - stepId: after
            stepFunction:
              functionName: request
              parameters:
                url: /after
                method: get
        result:
          data:
            flaky: $.steps.flaky.output.data
            error: $.steps.flaky.error.status
            after: $.steps.after.output.data
      - actionId: download
        actionType: get
        label: Download
        inputs:
          - name: id
            type: string
            in: path
            required: true
        steps:
          - stepId: file
            stepFunction:
              functionName: download_file
              parameters:
                url: /files/\${inputs.id}/content
                method: get
      - actionId: download_declared
        actionType: get
        label: Download with a declared media type
        steps:
          - stepId: file
            stepFunction:
              functionName: download_file
              parameters:
                url: /report
                method: get
                contentType: text/csv
                fileName: report.csv
        result:
          data: $.steps.file.output.data
      - actionId: upload
        actionType: create
        label: Upload
        inputs:
          - name: content
            type: string
            in: body
            required: true
          - name: name
            type: string
            in: body
        steps:
          - stepId: send
            stepFunction:
              functionName: upload_file
              parameters:
                url: /files
                method: put
                contentType: text/plain
                fileName: $.inputs.name
        result:
          data: $.steps.send.output.data
  `)

  it.effect("static_values and group_data (zipped by index, or one record)", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(misc, "grouped", {}, () => json({}))
      expect(requests).toHaveLength(0)
      expect(output.data).toEqual({
        zipped: [{ people: { list: [{ id: 1 }, { id: 2 }] }, team: { name: "core" } }],
        single: { people: { list: [{ id: 1 }, { id: 2 }] }, team: { name: "core" } }
      })
    }))

  it.effect("ignoreError records the failure and the run goes on", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(misc, "tolerant", {}, (_, url) =>
        url.pathname === "/flaky" ? json({ oops: true }, 503) : json({ fine: true }))
      expect(requests).toHaveLength(2)
      expect(output.data).toEqual({ error: 503, after: { fine: true } })
    }))

  it.effect("download_file answers bytes with content type and file name", () =>
    Effect.gen(function*() {
      const bytes = new Uint8Array([1, 2, 3, 250])
      const { output, requests } = yield* succeed(misc, "download", { id: "42" }, () => ({
        status: 200,
        headers: { "Content-Type": "application/pdf", "Content-Disposition": "attachment; filename=\"cv.pdf\"" },
        body: bytes
      }))
      expect(requests[0]!.responseType).toBe("bytes")
      expect(requests[0]!.url).toBe("https://api.example.com/files/42/content")
      expect(output.data).toEqual({ data: bytes, contentType: "application/pdf", fileName: "cv.pdf" })
    }))

  it.effect("streamed downloads pass the provider's stream through unread, with its media type and name", () =>
    Effect.gen(function*() {
      let pulled = 0
      const chunks = [new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([250])]
      const stream = Stream.fromIterable(chunks).pipe(Stream.tap(() => Effect.sync(() => pulled++)))
      const { output, requests } = yield* succeed(misc, "download", { id: "42" }, () => ({
        status: 200,
        headers: { "Content-Type": "application/pdf", "Content-Disposition": "attachment; filename=\"cv.pdf\"" },
        body: new StreamedBody(stream, 4)
      }), { downloads: "stream" })
      expect(requests[0]!.responseType).toBe("stream")
      const file = output.data as FileDownload
      expect(file).toBeInstanceOf(FileDownload)
      expect([file.contentType, file.fileName, file.contentLength]).toEqual(["application/pdf", "cv.pdf", 4])
      expect(pulled).toBe(0)
      const bytes = yield* Stream.runCollect(file.stream)
      expect(Buffer.concat([...bytes])).toEqual(Buffer.from([1, 2, 3, 250]))
      expect(JSON.stringify({ file })).toBe('{"file":"<stream of 4 bytes>"}')
    }))

  it.effect("streamed downloads: the declared media type wins, result data keeps the file, bytes become one chunk", () =>
    Effect.gen(function*() {
      const { output } = yield* succeed(misc, "download_declared", {}, () => ({
        status: 200,
        headers: { "content-type": "application/octet-stream" },
        body: new Uint8Array([65, 66])
      }), { downloads: "stream" })
      const file = output.data as FileDownload
      expect(file).toBeInstanceOf(FileDownload)
      expect([file.contentType, file.fileName, file.contentLength]).toEqual(["text/csv", "report.csv", 2])
      expect(Buffer.concat([...(yield* Stream.runCollect(file.stream))]).toString()).toBe("AB")

      const missing = yield* failWith(misc, "download", { id: "7" }, () => json({ message: "no such file" }, 404), {
        downloads: "stream"
      })
      expect(missing.error._tag).toBe("ProviderHttpError")
      expect(missing.error.message).toContain("404")
    }))

  it.effect("upload_file sends base64 input as bytes", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(
        misc,
        "upload",
        { content: Buffer.from("hello").toString("base64"), name: "hi.txt" },
        () => json({ id: "f1" }, 201)
      )
      const request = requests[0]!
      expect(request.method).toBe("PUT")
      expect(request.body?._tag).toBe("Bytes")
      if (request.body?._tag !== "Bytes") return
      expect(Buffer.from(request.body.value).toString()).toBe("hello")
      expect(request.body.contentType).toBe("text/plain")
      expect(request.headers["content-disposition"]).toBe("attachment; filename=\"hi.txt\"")
      expect(output.data).toEqual({ id: "f1" })

      const bad = yield* failWith(misc, "upload", { content: "not base64!!" }, () => json({}))
      expect(bad.error._tag).toBe("ActionInputError")
      expect(bad.requests).toHaveLength(0)
    }))

  const mcp = connector(dedent`
    StackOne: 1.0.0
    info:
      title: MCP
      key: mcp
      version: 1.0.0
    baseUrl: https://mcp.example.com/mcp
    authentication:
      - token:
          type: custom
          authorization:
            type: bearer
            token: $.credentials.token
    actions:
      - actionId: tools
        actionType: list
        label: Tools
        steps:
          - stepId: list
            stepFunction:
              functionName: mcp_request
              parameters:
                method: tools/list
        result:
          data: $.steps.list.output.data
      - actionId: call
        actionType: custom
        label: Call
        inputs:
          - name: city
            type: string
            in: body
        steps:
          - stepId: call
            stepFunction:
              functionName: mcp_request
              parameters:
                method: tools/call
                name: weather
                arguments:
                  city: $.inputs.city
        result:
          data: $.steps.call.output.data.content
  `)

  const rpcMessage = (request: ProviderRequest) =>
    (request.body as { value: { id?: number; method: string; params?: unknown } }).value
  const rpcMethods = (requests: ReadonlyArray<ProviderRequest>) => requests.map((request) => rpcMessage(request).method)

  /**
   * An MCP server: `initialize` answered with a result the SDK accepts (in `version`, with a
   * session when given), notifications accepted (202), other requests answered by `answer`.
   */
  const mcpServer = (answer: FakeHandler, options: { readonly version?: string; readonly session?: string } = {}): FakeHandler =>
  (request, url, index) => {
    const message = rpcMessage(request)
    if (message.method === "initialize") {
      const result = {
        protocolVersion: options.version ?? MCP_PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "fake-mcp", version: "1.0.0" }
      }
      return json({ jsonrpc: "2.0", id: message.id, result }, 200, options.session === undefined ? {} : { "mcp-session-id": options.session })
    }
    if (message.id === undefined) return { status: 202, headers: {}, body: null }
    return answer(request, url, index)
  }

  it.effect("mcp_request: tools/list over JSON and tools/call over SSE, with auth", () =>
    Effect.gen(function*() {
      const handler = mcpServer((request) => {
        const message = rpcMessage(request)
        if (message.method === "tools/list") {
          return json({ jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "weather" }] } })
        }
        const payload = { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: JSON.stringify(message.params) }] } }
        return {
          status: 200,
          headers: { "content-type": "text/event-stream" },
          body: `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nevent: message\ndata: ${JSON.stringify(payload)}\n\n`
        }
      })
      const listed = yield* succeed(mcp, "tools", {}, handler)
      expect(listed.output.data).toEqual([{ name: "weather" }])
      // the SDK's client: initialize (in the one protocol version), initialized, then the call
      expect(rpcMethods(listed.requests)).toEqual(["initialize", "notifications/initialized", "tools/list"])
      expect(rpcMessage(listed.requests[0]!)).toMatchObject({ id: 0, params: { protocolVersion: MCP_PROTOCOL_VERSION } })
      for (const request of listed.requests) {
        expect(request.url).toBe("https://mcp.example.com/mcp")
        expect(request.method).toBe("POST")
        expect(request.headers).toMatchObject({ authorization: "Bearer tok-abcdef", accept: "application/json, text/event-stream" })
      }
      const request = listed.requests[2]!
      expect(request.headers["mcp-protocol-version"]).toBe(MCP_PROTOCOL_VERSION)
      expect(request.body).toMatchObject({ _tag: "Json", value: { jsonrpc: "2.0", id: 1, method: "tools/list" } })

      const called = yield* succeed(mcp, "call", { city: "Oslo" }, handler)
      expect(called.output.data).toEqual([{ type: "text", text: JSON.stringify({ name: "weather", arguments: { city: "Oslo" } }) }])
    }))

  it.effect("mcp_request keeps the session the server gives at initialize", () =>
    Effect.gen(function*() {
      const handler = mcpServer((request) => {
        const message = rpcMessage(request)
        if (request.headers["mcp-session-id"] !== "s-1") {
          return json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: No valid session ID provided" } }, 400)
        }
        return json({ jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "t" }] } })
      }, { version: "2025-03-26", session: "s-1" })
      const { output, requests } = yield* succeed(mcp, "tools", {}, handler)
      expect(output.data).toEqual([{ name: "t" }])
      expect(rpcMethods(requests)).toEqual(["initialize", "notifications/initialized", "tools/list"])
      expect(requests[0]!.headers["mcp-session-id"]).toBeUndefined()
      for (const request of requests.slice(1)) {
        expect(request.headers["mcp-session-id"]).toBe("s-1")
        // the version the server chose, not the client's
        expect(request.headers["mcp-protocol-version"]).toBe("2025-03-26")
      }
    }))

  it.effect("mcp_request reports JSON-RPC errors as provider errors", () =>
    Effect.gen(function*() {
      const { error, requests } = yield* failWith(mcp, "call", { city: "x" }, mcpServer((request) =>
        json({ jsonrpc: "2.0", id: rpcMessage(request).id, error: { code: -32602, message: "unknown tool" } })))
      expect(rpcMethods(requests)).toEqual(["initialize", "notifications/initialized", "tools/call"])
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 200, body: { code: -32602, message: "unknown tool" } })
      expect(error.message).toContain("MCP tools/call failed: unknown tool")
    }))

  it.effect("mcp_request never opens the GET stream the SDK would listen on", () =>
    Effect.gen(function*() {
      // notifications/initialized accepted with 202: the SDK's transport then opens a GET stream
      const { output, requests } = yield* succeed(mcp, "tools", {}, mcpServer((request) =>
        json({ jsonrpc: "2.0", id: rpcMessage(request).id, result: { tools: [] } })))
      expect(output.data).toEqual([])
      expect(requests.map((request) => request.method)).toEqual(["POST", "POST", "POST"])
      expect(rpcMethods(requests)).toEqual(["initialize", "notifications/initialized", "tools/list"])
    }))

  it.effect("mcp_request: a provider error status on the call is a ProviderHttpError, redacted, as before", () =>
    Effect.gen(function*() {
      const down = yield* failWith(mcp, "call", { city: "x" }, mcpServer(() => ({
        status: 502,
        headers: { "content-type": "text/plain" },
        body: "bad gateway"
      })))
      expect(down.error).toMatchObject({
        _tag: "ProviderHttpError",
        status: 502,
        method: "POST",
        url: "https://mcp.example.com/mcp",
        body: "bad gateway",
        stepId: "call"
      })
      expect(down.error.message).toContain("MCP tools/call: provider answered 502")

      // a JSON-RPC error with an error status: the error is the body, its message the error's
      const refused = yield* failWith(mcp, "call", { city: "x" }, mcpServer((request) =>
        json({ jsonrpc: "2.0", id: rpcMessage(request).id, error: { code: -32001, message: `token ${credentials.token} refused` } }, 403)))
      expect(refused.error).toMatchObject({
        _tag: "ProviderHttpError",
        status: 403,
        method: "POST",
        body: { code: -32001, message: "token [REDACTED] refused" },
        stepId: "call"
      })
      expect(refused.error.message).toContain("MCP tools/call failed: token [REDACTED] refused")
      expect(JSON.stringify(refused.error)).not.toContain(credentials.token)
    }))

  it.effect("mcp_request fails with the transport's own error", () =>
    Effect.gen(function*() {
      const lost = new ProviderTransportError({ reason: "unreachable", message: "provider unreachable: connection failed", url: "https://mcp.example.com/mcp" })
      const { error, requests } = yield* failWith(mcp, "tools", {}, mcpServer(() => Effect.fail(lost)))
      expect(error).toBe(lost)
      expect(rpcMethods(requests)).toEqual(["initialize", "notifications/initialized", "tools/list"])
    }))

  it.effect("mcp_request: the step deadline ends the call and the provider call under way", () =>
    Effect.gen(function*() {
      const arrived = yield* Deferred.make<void>()
      let interrupted = false
      const hanging: FakeHandler = () =>
        Deferred.succeed(arrived, undefined).pipe(
          Effect.zipRight(Effect.never),
          Effect.onInterrupt(() => Effect.sync(() => { interrupted = true }))
        )
      const { effect, requests } = run(mcp, "tools", {}, hanging, { limits: { stepTimeoutMs: 1_000 } })
      const fiber = yield* Effect.fork(effect)
      yield* Deferred.await(arrived)
      yield* TestClock.adjust("1001 millis")
      const exit = yield* Fiber.await(fiber)
      expect(exit).toEqual(Exit.fail(expect.objectContaining({ _tag: "ActionLimitError", limit: "stepTimeout", stepId: "list" })))
      expect(interrupted).toBe(true)
      expect(rpcMethods(requests)).toEqual(["initialize"])
    }))
})

// ---- authentication ---------------------------------------------------------------

describe("runAction: authentication", () => {
  const authConnector = connector(dedent`
    StackOne: 1.0.0
    info:
      title: Auth
      key: auth
      version: 1.0.0
    baseUrl: https://api.example.com
    authentication:
      - basic_auth:
          type: custom
          authorization:
            type: basic
            username: $.credentials.apiKey
            password: $.credentials.password
      - bearer_auth:
          type: custom
          authorization:
            type: bearer
            token: $.credentials.token
      - header_key:
          type: custom
          authorization:
            type: apiKey
            key: X-Api-Key
            value: $.credentials.apiKey
            in: header
      - query_key:
          type: custom
          authorization:
            type: apiKey
            key: api_key
            value: $.credentials.apiKey
            in: query
      - open:
          type: custom
          authorization:
            type: none
      - machine:
          type: oauth2
          grantType: client_credentials
          tokenUrl: https://auth.example.com/oauth/token
          tokenExpiresIn: 600
          scopes: [read, write]
      - nested_token:
          type: oauth2
          grantType: client_credentials
          tokenUrl: https://auth.example.com/auth
          tokenField: data.token
      - user:
          type: oauth2
          grantType: authorization_code
          authorization:
            type: oauth2
            token: $.credentials.accessToken
    actions:
      - actionId: ping
        actionType: custom
        label: Ping
        steps:
          - stepId: ping
            stepFunction:
              functionName: request
              parameters:
                url: /ping
                method: get
  `)

  const pong: FakeHandler = (_, url) =>
    url.pathname === "/oauth/token" ? json({ access_token: "at-999999", expires_in: 3600, token_type: "bearer" }) : json({ ok: true })

  const ping = (authMethod: string, creds: Record<string, unknown> = credentials, cache = new TokenCache(), handler = pong) =>
    succeed(authConnector, "ping", {}, handler, { authMethod, credentials: creds, tokenCache: cache })

  it.effect("basic (the first method by default), with an empty password allowed", () =>
    Effect.gen(function*() {
      const { requests } = yield* succeed(authConnector, "ping", {}, pong)
      expect(requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from("key-123456:").toString("base64")}`)
      expect(requests[0]!.secrets).toContain(Buffer.from("key-123456:").toString("base64"))
    }))

  it.effect("bearer, apiKey in a header and in the query, none", () =>
    Effect.gen(function*() {
      expect((yield* ping("bearer_auth")).requests[0]!.headers.authorization).toBe("Bearer tok-abcdef")
      expect((yield* ping("header_key")).requests[0]!.headers["x-api-key"]).toBe("key-123456")
      const query = (yield* ping("query_key")).requests[0]!
      expect(query.url).toBe("https://api.example.com/ping?api_key=key-123456")
      expect(query.headers.authorization).toBeUndefined()
      const open = (yield* ping("open")).requests[0]!
      expect(open.headers).toEqual({})
    }))

  it.effect("oauth2 authorization code uses the stored access token; a missing one is an input error", () =>
    Effect.gen(function*() {
      const { requests } = yield* ping("user", { accessToken: "user-token-1" })
      expect(requests[0]!.headers.authorization).toBe("Bearer user-token-1")
      const { effect } = run(authConnector, "ping", {}, pong, { authMethod: "user", credentials: {} })
      const error = yield* Effect.flip(effect)
      expect(error).toMatchObject({ _tag: "ActionInputError" })
      expect(error.message).toContain("credentials.accessToken")
    }))

  it.effect("a missing credential is reported without guessing", () =>
    Effect.gen(function*() {
      const { effect, requests } = run(authConnector, "ping", {}, pong, { authMethod: "bearer_auth", credentials: {} })
      const error = yield* Effect.flip(effect)
      expect(error._tag).toBe("ActionInputError")
      expect(requests).toHaveLength(0)
    }))

  it.effect("an unknown method name is a definition error", () =>
    Effect.gen(function*() {
      const { effect } = run(authConnector, "ping", {}, pong, { authMethod: "nope" })
      expect((yield* Effect.flip(effect))._tag).toBe("ActionDefinitionError")
    }))

  const machineCredentials = { clientId: "client-1", clientSecret: "secret-xyz" }

  it.effect("oauth2 client credentials: fetches a token with a form, caches it until expiry", () =>
    Effect.gen(function*() {
      const cache = new TokenCache()
      const first = yield* ping("machine", machineCredentials, cache)
      expect(first.requests).toHaveLength(2)
      const [tokenRequest, call] = first.requests
      expect(tokenRequest!.url).toBe("https://auth.example.com/oauth/token")
      expect(tokenRequest!.method).toBe("POST")
      expect(tokenRequest!.body).toEqual({
        _tag: "Form",
        value: { grant_type: "client_credentials", client_id: "client-1", client_secret: "secret-xyz", scope: "read write" }
      })
      expect(call!.headers.authorization).toBe("Bearer at-999999")
      expect(call!.secrets).toEqual(expect.arrayContaining(["client-1", "secret-xyz", "at-999999"]))

      const second = yield* ping("machine", machineCredentials, cache)
      expect(second.requests.map((request) => new URL(request.url).pathname)).toEqual(["/ping"])

      // 3600 s minus the 60 s margin: still cached just before, fetched again after
      yield* TestClock.adjust("3539 seconds")
      expect((yield* ping("machine", machineCredentials, cache)).requests).toHaveLength(1)
      yield* TestClock.adjust("2 seconds")
      expect((yield* ping("machine", machineCredentials, cache)).requests).toHaveLength(2)
    }))

  it.effect("oauth2 client credentials: tokenField reads a token answered elsewhere than access_token; a context tokenUrl replaces the method's", () =>
    Effect.gen(function*() {
      const nested: FakeHandler = (_, url) =>
        url.pathname === "/auth" ? json({ success: true, data: { token: "nested-token-1" } }) : json({ ok: true })
      const { requests } = yield* ping("nested_token", machineCredentials, new TokenCache(), nested)
      expect(requests.map((request) => request.url)).toEqual(["https://auth.example.com/auth", "https://api.example.com/ping"])
      expect(requests[1]!.headers.authorization).toBe("Bearer nested-token-1")

      // an answer without the token at that path names the path
      const flat: FakeHandler = (_, url) => url.pathname === "/auth" ? json({ access_token: "x" }) : json({ ok: true })
      const { effect } = run(authConnector, "ping", {}, flat, { authMethod: "nested_token", credentials: machineCredentials })
      expect((yield* Effect.flip(effect)).message).toContain("without data.token")

      // the account's token_url setting reaches the engine as tokenUrl: used as is
      const moved = yield* succeed(authConnector, "ping", {}, pong, {
        authMethod: "machine",
        credentials: machineCredentials,
        tokenCache: new TokenCache(),
        tokenUrl: "https://sandbox-auth.example.com/oauth/token"
      })
      expect(moved.requests[0]!.url).toBe("https://sandbox-auth.example.com/oauth/token")
    }))

  it.effect("oauth2 client credentials: concurrent runs share one token fetch", () =>
    Effect.gen(function*() {
      const cache = new TokenCache()
      let tokenFetches = 0
      const slowToken: FakeHandler = (_, url) => {
        if (url.pathname !== "/oauth/token") return json({ ok: true })
        tokenFetches++
        return Effect.sleep("200 millis").pipe(Effect.as(json({ access_token: "at-shared", expires_in: 3600 })))
      }
      const runs = Effect.all(
        Array.from({ length: 8 }, () => ping("machine", machineCredentials, cache, slowToken)),
        { concurrency: "unbounded" }
      )
      const fiber = yield* Effect.fork(runs)
      yield* TestClock.adjust("1 second")
      const results = yield* Fiber.join(fiber)
      expect(tokenFetches).toBe(1)
      for (const result of results) expect(result.requests.at(-1)!.headers.authorization).toBe("Bearer at-shared")
    }))

  it.effect("oauth2 client credentials: a 401 drops the cached token and retries once with a new one", () =>
    Effect.gen(function*() {
      const cache = new TokenCache()
      let issued = 0
      const handler: FakeHandler = (request, url) => {
        if (url.pathname === "/oauth/token") return json({ access_token: `at-${++issued}-xxxx`, expires_in: 3600 })
        return request.headers.authorization === "Bearer at-1-xxxx" ? json({ error: "expired" }, 401) : json({ ok: true })
      }
      const { output, requests } = yield* ping("machine", machineCredentials, cache, handler)
      expect(output.data).toEqual({ ok: true })
      expect(requests.map((request) => new URL(request.url).pathname)).toEqual(["/oauth/token", "/ping", "/oauth/token", "/ping"])
    }))

  it.effect("oauth2 client credentials: a failing token endpoint is a provider error without secrets", () =>
    Effect.gen(function*() {
      const { effect } = run(authConnector, "ping", {}, (_, url) =>
        url.pathname === "/oauth/token" ? json({ error: "invalid_client", got: "secret-xyz" }, 401) : json({}), {
        authMethod: "machine",
        credentials: machineCredentials,
        tokenCache: new TokenCache()
      })
      const error = yield* Effect.flip(effect)
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 401, url: "https://auth.example.com/oauth/token" })
      expect(JSON.stringify(error)).not.toContain("secret-xyz")
    }))
})

// ---- inputs, definitions, limits, secrets -----------------------------------------

describe("runAction: inputs and definition errors", () => {
  it.effect("rejects invalid inputs naming each one, before any request", () =>
    Effect.gen(function*() {
      const { error, requests } = yield* failWith(hr, "list_employees", { page_size: "ten", filter_updated_after: "yesterday" }, provider)
      expect(error._tag).toBe("ActionInputError")
      if (error._tag !== "ActionInputError") return
      expect(error.issues.map((issue) => issue.input)).toEqual(["page_size", "filter_updated_after"])
      expect(error.message).toContain("page_size")
      expect(error.message).toContain("filter_updated_after")
      expect(requests).toHaveLength(0)

      const missing = yield* failWith(hr, "get_employee", {}, provider)
      expect(missing.error.message).toBe("invalid inputs: id is required")
    }))

  it.effect("an unknown action or a step reading a missing step is a definition error", () =>
    Effect.gen(function*() {
      expect((yield* failWith(hr, "nope", {}, provider)).error).toBeInstanceOf(ActionDefinitionError)
      const broken = connector(dedent`
        StackOne: 1.0.0
        info:
          title: Broken
          key: broken
          version: 1.0.0
        actions:
          - actionId: a
            actionType: custom
            label: A
            steps:
              - stepId: one
                stepFunction:
                  functionName: static_values
                  parameters:
                    values:
                      x: $.steps.ghost.output.data
      `)
      const { error } = yield* failWith(broken, "a", {}, provider)
      expect(error).toMatchObject({ _tag: "ActionDefinitionError", actionId: "a" })
      expect(error.message).toContain("ghost")
    }))

  it.effect("a computed absolute URL may not leave the base URL's origin", () =>
    Effect.gen(function*() {
      const open = connector(dedent`
        StackOne: 1.0.0
        info:
          title: Open
          key: open
          version: 1.0.0
        baseUrl: https://api.example.com
        actions:
          - actionId: fetch
            actionType: custom
            label: Fetch
            inputs:
              - name: target
                type: string
                in: query
            steps:
              - stepId: go
                stepFunction:
                  functionName: request
                  parameters:
                    url: \${inputs.target}
                    method: get
      `)
      const evil = yield* failWith(open, "fetch", { target: "https://evil.example.net/collect" }, () => json({}))
      expect(evil.error._tag).toBe("ActionDefinitionError")
      expect(evil.requests).toHaveLength(0)
      const same = yield* succeed(open, "fetch", { target: "https://api.example.com/x" }, () => json({ ok: 1 }))
      expect(same.output.data).toEqual({ ok: 1 })
      const scheme = yield* failWith(open, "fetch", { target: "file:///etc/passwd" }, () => json({}))
      expect(scheme.error._tag).toBe("ActionDefinitionError")
    }))

  it.effect("a download may follow a computed link to another host, sent without the connector's credentials", () =>
    Effect.gen(function*() {
      const files = connector(dedent`
        StackOne: 1.0.0
        info:
          title: Files
          key: files
          version: 1.0.0
        baseUrl: https://api.example.com
        authentication:
          - basic_auth:
              type: custom
              authorization:
                type: basic
                username: $.credentials.apiKey
                password: x
        actions:
          - actionId: download
            actionType: get
            label: Download
            inputs:
              - name: link
                type: string
                in: query
            steps:
              - stepId: file
                stepFunction:
                  functionName: download_file
                  parameters:
                    url: \${inputs.link}
                    method: get
                    args:
                      - name: X-Api-Key
                        value: $.credentials.apiKey
                        in: headers
                      - name: key
                        value: $.credentials.apiKey
                        in: query
                      - name: tenant
                        value: $.credentials.apiKey
                        in: path
      `)
      const bytes = new Uint8Array([7, 8, 9])
      const file = () => ({ status: 200, headers: { "Content-Type": "application/pdf" }, body: bytes })
      const link = "https://files.example-cdn.net/cv.pdf?X-Amz-Signature=abc"
      const foreign = yield* succeed(files, "download", { link }, file)
      expect(foreign.requests[0]!.url).toBe(link)
      expect(foreign.requests[0]!.headers).toEqual({})
      expect(foreign.requests[0]!.foreign).toBe(true)
      const plain = yield* failWith(files, "download", { link: "http://files.example-cdn.net/cv.pdf" }, file)
      expect([plain.error._tag, plain.requests.length]).toEqual(["ActionDefinitionError", 0])
      expect(plain.error.message).toMatch(/is not https/)
      // a path argument filled into a link on another host would carry the credential there
      const templated = yield* failWith(files, "download", { link: "https://files.example-cdn.net/{tenant}/cv.pdf" }, file)
      expect([templated.error._tag, templated.requests.length]).toEqual(["ActionDefinitionError", 0])
      expect(JSON.stringify(templated.error)).not.toContain(credentials.apiKey)
      expect(foreign.output.data).toMatchObject({ data: bytes, contentType: "application/pdf" })
      // on the connector's own host the same step is authenticated as usual
      const own = yield* succeed(files, "download", { link: "https://api.example.com/files/1" }, file)
      expect(own.requests[0]!.headers.authorization).toMatch(/^Basic /)
      expect(own.requests[0]!.headers["x-api-key"]).toBe(credentials.apiKey)
      expect(own.requests[0]!.url).toContain(`key=${credentials.apiKey}`)
    }))
})

describe("runAction: limits", () => {
  const never: FakeHandler = () => Effect.never

  it.effect("a step that does not answer fails with stepTimeout", () =>
    Effect.gen(function*() {
      const { effect } = run(hr, "get_employee", { id: "1" }, never, { limits: { stepTimeoutMs: 1_000 } })
      const fiber = yield* Effect.fork(effect)
      yield* TestClock.adjust("1001 millis")
      const exit = yield* Fiber.await(fiber)
      expect(exit).toEqual(Exit.fail(expect.objectContaining({ _tag: "ActionLimitError", limit: "stepTimeout" })))
    }))

  it.effect("the whole action is bounded by actionTimeout", () =>
    Effect.gen(function*() {
      // each page answers in 400 ms, under the step deadline; the pages together exceed the action's
      let page = 0
      const slow: FakeHandler = () =>
        Effect.sleep("400 millis").pipe(Effect.as(json({ items: [page], meta: { next: `p${++page}` } })))
      const { effect } = run(hr, "list_employees", {}, slow, { limits: { stepTimeoutMs: 500, actionTimeoutMs: 1_000 } })
      const fiber = yield* Effect.fork(effect)
      yield* TestClock.adjust("2 seconds")
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error).toMatchObject({ _tag: "ActionLimitError", limit: "actionTimeout" })
    }))

  it.effect("maxRecords, maxResponseBytes and the expression output bound", () =>
    Effect.gen(function*() {
      const many = yield* failWith(hr, "list_employees", {}, () => json({ items: [1, 2, 3], meta: {} }), { limits: { maxRecords: 2 } })
      expect(many.error).toMatchObject({ _tag: "ActionLimitError", limit: "maxRecords" })

      const big = yield* failWith(hr, "get_employee", { id: "1" }, () => ({ status: 200, headers: {}, body: "x".repeat(2_000) }), {
        limits: { maxResponseBytes: 1_000 }
      })
      expect(big.error).toMatchObject({ _tag: "ActionLimitError", limit: "maxResponseBytes" })

      const long = yield* failWith(hr, "get_employee", { id: "y".repeat(200) }, provider, { limits: { maxExpressionOutputChars: 100 } })
      expect(long.error).toMatchObject({ _tag: "ActionLimitError", limit: "maxExpressionOutput" })
      expect(long.requests).toHaveLength(0)
    }))
})

describe("runAction: secrets", () => {
  it.effect("every request lists the credential values (4+ chars) as secrets", () =>
    Effect.gen(function*() {
      const { requests } = yield* succeed(hr, "get_employee", { id: "1" }, provider, {
        credentials: { ...credentials, pin: "123", nested: { deep: "deep-secret" } }
      })
      const secrets = requests[0]!.secrets
      expect(secrets).toEqual(expect.arrayContaining(["acme", "key-123456", "tok-abcdef", "deep-secret"]))
      expect(secrets).not.toContain("123")
    }))

  it.effect("error messages never carry a credential value", () =>
    Effect.gen(function*() {
      const echo = connector(dedent`
        StackOne: 1.0.0
        info:
          title: Echo
          key: echo
          version: 1.0.0
        baseUrl: https://api.example.com
        actions:
          - actionId: go
            actionType: custom
            label: Go
            steps:
              - stepId: call
                stepFunction:
                  functionName: request
                  parameters:
                    url: /x/\${credentials.apiKey}
                    method: get
                    customErrors:
                      - receivedStatus: 403
                        targetStatus: 403
                        message: 'denied for \${credentials.apiKey}'
      `)
      const denied = yield* failWith(echo, "go", {}, () => json({ key: "key-123456" }, 403))
      const text = JSON.stringify({ ...denied.error, message: denied.error.message })
      expect(text).not.toContain("key-123456")
      expect(denied.error.message).toBe("denied for [REDACTED]")
      const other = yield* failWith(echo, "go", {}, () => json({ key: "key-123456" }, 500))
      expect(JSON.stringify({ ...other.error, message: other.error.message })).not.toContain("key-123456")
    }))
})

describe("runAction: the acme-hris fixture", () => {
  const acme = connector(readFileSync(new URL("./fixtures/acme-hris.yaml", import.meta.url), "utf8"))

  it.effect("lists employees through paginated_request, fieldConfigs and typecast", () =>
    Effect.gen(function*() {
      const handler: FakeHandler = (_, url) =>
        url.searchParams.get("cursor") === "c2"
          ? json({ employees: [{ id: 2, email: "b@acme.io", status: "Terminated" }], next_cursor: null })
          : json({ employees: [{ id: 1, email: "a@acme.io", status: "Active", start_date: "2020-05-01" }], next_cursor: "c2" })
      const { output, requests } = yield* succeed(acme, "hris_list_employees", { page_size: 10 }, handler, {
        credentials: { subdomain: "globex", apiKey: "acme-key-1" }
      })
      expect(requests[0]!.url).toBe("https://globex.acmehr.example.com/api/v1/employees?limit=10")
      expect(output).toEqual({
        data: [
          { id: "1", work_email: "a@acme.io", employment_status: { value: "active", source_value: "Active" } },
          { id: "2", work_email: "b@acme.io", employment_status: { value: "terminated", source_value: "Terminated" } }
        ],
        next: undefined
      })
    }))

  it.effect("runs an event action reading an undeclared body input", () =>
    Effect.gen(function*() {
      const { output } = yield* succeed(acme, "employee_updated", { body: { type: "employee.updated", id: "9" } }, provider)
      expect(output.data).toEqual({ type: "employee.updated", id: "9" })
    }))
})

describe("runAction: request building details", () => {
  const details = connector(dedent`
    StackOne: 1.0.0
    info:
      title: Details
      key: details
      version: 1.0.0
    baseUrl: https://api.example.com/v2/
    actions:
      - actionId: search
        actionType: list
        label: Search
        inputs:
          - name: id
            type: string
            in: path
            required: true
          - name: filter_status
            type: string
            in: query
          - name: ids
            type: string
            in: query
            array: true
        steps:
          - stepId: search
            stepFunction:
              functionName: request
              parameters:
                url: /teams/{team}/people
                method: '{{inputs.ids ? "post" : "get"}}'
                args:
                  - name: team
                    value: $.inputs.id
                    in: path
                  - name: status
                    value: $.filter.status
                    in: query
                  - name: id
                    value: $.inputs.ids
                    in: query
                  - name: extra
                    value: { a: 1, b: [x, y] }
                    in: body
                    spread: true
                  - name: nothing
                    value: null
                    in: query
                response:
                  dataKey: results.people
        result:
          data: $.steps.search.output.data
      - actionId: token
        actionType: custom
        label: Token
        steps:
          - stepId: refresh
            stepFunction:
              functionName: request
              parameters:
                url: https://auth.example.org/oauth/token
                method: post
                bodyType: form
                args:
                  - name: grant_type
                    value: refresh_token
                    in: body
                  - name: refresh_token
                    value: $.credentials.refreshToken
                    in: body
      - actionId: cursor_in_body
        actionType: list
        label: Cursor in body
        steps:
          - stepId: fetch
            stepFunction:
              functionName: paginated_request
              parameters:
                url: /search
                method: post
                args:
                  - name: query
                    value: all
                    in: body
                response:
                  dataKey: hits
                  nextKey: after
                iterator:
                  key: search_after
                  in: body
  `)

  it.effect("path args, filters from the context, array query values, spread bodies, proxy passthrough", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(details, "search", {
        id: "t 1",
        filter_status: "open",
        ids: "a,b",
        proxy: { include: "all", fields: ["x", "y"] }
      }, () => json({ results: { people: { id: 1 } } }))
      const request = requests[0]!
      expect(request.method).toBe("POST")
      expect(request.url).toBe(
        "https://api.example.com/v2/teams/t%201/people?status=open&id=a&id=b&include=all&fields=x&fields=y"
      )
      expect(request.body).toEqual({ _tag: "Json", value: { a: 1, b: ["x", "y"] } })
      // a list action always answers an array
      expect(output.data).toEqual([{ id: 1 }])
    }))

  it.effect("form bodies, absolute URLs fixed by the connector, no proxy on other hosts' calls", () =>
    Effect.gen(function*() {
      const { requests } = yield* succeed(details, "token", { proxy: { x: 1 } }, () => json({ access_token: "n" }), {
        credentials: { refreshToken: "refresh-1" }
      })
      expect(requests[0]!.url).toBe("https://auth.example.org/oauth/token")
      expect(requests[0]!.body).toEqual({ _tag: "Form", value: { grant_type: "refresh_token", refresh_token: "refresh-1" } })
    }))

  it.effect("a cursor can travel in the body", () =>
    Effect.gen(function*() {
      const { output, requests } = yield* succeed(details, "cursor_in_body", {}, (request) => {
        const body = (request.body as { value: Record<string, unknown> }).value
        return body.search_after === undefined ? json({ hits: [1], after: [5, "k"] }) : json({ hits: [2] })
      })
      expect(output.data).toEqual([1, 2])
      expect(requests[1]!.body).toEqual({ _tag: "Json", value: { query: "all", search_after: [5, "k"] } })
    }))

  it("plans are compiled once per connector version and action", () => {
    const first = planAction(details, "search")
    const second = planAction(details, "search")
    expect(Either.isRight(first) && Either.isRight(second) && first.right === second.right).toBe(true)
  })
})

describe("runAction: expression helpers in a connector", () => {
  const people = connector(dedent`
    StackOne: 1.0.0
    info:
      title: People
      key: people
      version: 1.0.0
    baseUrl: https://api.example.com
    actions:
      - actionId: list_people
        actionType: list
        label: List people
        fieldConfigs:
          - targetFieldKey: email
            expression: '{{$.fetch.email|lower}}'
            type: string
          - targetFieldKey: hired_on
            expression: '{{formatDate($.fetch.hired_at, "DD/MM/YYYY")}}'
            type: string
        steps:
          - stepId: fetch
            stepFunction:
              functionName: request
              parameters:
                url: /people
                method: get
                response:
                  dataKey: people
          - stepId: map
            stepFunction:
              functionName: map_fields
              version: '2'
              parameters:
                dataSource: $.steps.fetch.output.data
        result:
          data: $.steps.map.output.data
  `)

  it.effect("maps fields with lower and formatDate; unreadable provider values become null", () =>
    Effect.gen(function*() {
      const { output } = yield* succeed(people, "list_people", {}, () =>
        json({
          people: [
            { email: "Ada.Lovelace@Example.COM", hired_at: "2024-05-01T23:30:00-02:00" },
            { email: 42, hired_at: 1_700_000_000 },
            { hired_at: "not a date" }
          ]
        }))
      expect(output.data).toEqual([
        { email: "ada.lovelace@example.com", hired_on: "02/05/2024" },
        { email: null, hired_on: "14/11/2023" },
        { hired_on: null }
      ])
    }))
})
