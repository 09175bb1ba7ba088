import { Effect } from "effect"
import { bench, describe } from "vitest"
import { applyMapping, compileFields, ContextScope, type FieldConfig, runAction } from "../src/index.js"
import { connector, dedent, fakeTransport, json } from "./support/fakeTransport.js"

/*
 * `npx vitest bench --run packages/engine`: mapping cost of a list page (100 records,
 * 10 fields, an enum with three JEXL matchers, a datetime) and of a whole list run.
 */

const records = Array.from({ length: 100 }, (_, index) => ({
  id: index,
  first_name: `First${index}`,
  last_name: `Last${index}`,
  email: `user${index}@example.com`,
  status: ["active", "rejected", "hired", "other"][index % 4],
  applied_at: "2024-01-15T10:00:00Z",
  job: { id: `job-${index % 7}`, title: "Engineer" },
  tags: [{ name: "a" }, { name: "b" }],
  score: String(index * 1.5)
}))

const fields = [
  { targetFieldKey: "id", expression: "$.id", type: "string" },
  { targetFieldKey: "remote_id", expression: "$.id", type: "string" },
  { targetFieldKey: "first_name", expression: "$.first_name", type: "string" },
  { targetFieldKey: "last_name", expression: "$.last_name", type: "string" },
  { targetFieldKey: "email", expression: "$.email", type: "string" },
  {
    targetFieldKey: "status",
    expression: "$.status",
    type: "enum",
    enumMapper: {
      matcher: [
        { matchExpression: '{{$.status == "active"}}', value: "active" },
        { matchExpression: '{{$.status == "rejected"}}', value: "rejected" },
        { matchExpression: '{{$.status == "hired"}}', value: "hired" }
      ]
    }
  },
  { targetFieldKey: "created_at", expression: "$.applied_at", type: "datetime_string" },
  { targetFieldKey: "job_id", expression: "$.job.id", type: "string" },
  { targetFieldKey: "score", expression: "$.score", type: "number" },
  { targetFieldKey: "display", expression: "{{first_name + ' ' + last_name}}", type: "string" }
] as unknown as ReadonlyArray<FieldConfig>

const plan = { fields: compileFields(fields, "fields", new Map()), aliases: ["fetch"] }
const base = new ContextScope({ inputs: {}, credentials: {}, steps: {} })

const parsed = connector(dedent`
  StackOne: 1.0.0
  info:
    title: Bench
    key: bench
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
              url: /applications
              method: get
        - stepId: map
          stepFunction:
            functionName: map_fields
            version: '2'
            parameters:
              dataSource: $.steps.fetch.output.data
              fields:
                - { targetFieldKey: id, expression: $.id, type: string }
                - { targetFieldKey: remote_id, expression: $.id, type: string }
                - { targetFieldKey: first_name, expression: $.first_name, type: string }
                - { targetFieldKey: last_name, expression: $.last_name, type: string }
                - { targetFieldKey: email, expression: $.email, type: string }
                - targetFieldKey: status
                  expression: $.status
                  type: enum
                  enumMapper:
                    matcher:
                      - { matchExpression: '{{$.status == "active"}}', value: active }
                      - { matchExpression: '{{$.status == "rejected"}}', value: rejected }
                      - { matchExpression: '{{$.status == "hired"}}', value: hired }
                - { targetFieldKey: created_at, expression: $.applied_at, type: datetime_string }
                - { targetFieldKey: job_id, expression: $.job.id, type: string }
                - { targetFieldKey: score, expression: $.score, type: number }
                - { targetFieldKey: display, expression: "{{first_name + ' ' + last_name}}", type: string }
      result:
        data: $.steps.map.output.data
`)

const transport = fakeTransport(() => json(records))
const listRun = runAction(parsed, "list", {}, { credentials: {} }).pipe(Effect.provide(transport.layer))

describe("mapping", () => {
  bench("map 100 records x 10 fields (plan applied directly)", () => {
    applyMapping(plan, records, base)
  })

  bench("runAction: request + map_fields of 100 records", async () => {
    transport.requests.length = 0
    await Effect.runPromise(listRun)
  })
})
