import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { defaultParseLimits } from "@switchyard/engine"
import { Effect, Fiber, Ref } from "effect"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { freshProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * Hostile connector uploads (issue 10): expression and YAML bombs that used to hold the
 * event loop for seconds to a minute are refused with 422 after a linear scan. Time on
 * the wall is not asserted (a busy machine stretches it); the CPU time this process spends
 * on one registration is, with a bound the unfixed code exceeded by orders of magnitude
 * (vitest forks a process per test file, so the delta is this file's work alone, the
 * parse worker thread's included).
 */

/**
 * CPU time one refused registration may cost, server, parse worker and client together
 * (10-80 ms seen; the unfixed parser spent 0.4 s on 2,000 parentheses, 21 s on 5,000
 * `lower(`, 68 s on 10,000 parentheses).
 */
const CPU_BOUND_MS = 200

/** A valid connector whose first action's `result.data` is `data` (as a YAML string). */
const withData = (data: string) =>
  connectorYaml({ key: "hostile", version: "1.0.0" }).replace(
    "    result:\n      data: $.steps.fetch.output.data",
    `    result:\n      data: ${JSON.stringify(data)}`
  )

const nested = (open: string, inner: string, close: string, levels: number) =>
  open.repeat(levels) + inner + close.repeat(levels)

const aliasBomb = [
  "StackOne: 1.0.0",
  "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]",
  ..."bcdefghij".split("").map((name, i) => `${name}: &${name} [${Array(10).fill(`*${"abcdefghij"[i]}`).join(", ")}]`),
  "actions: *j"
].join("\n")

/**
 * CPU time a refused registration of a document of about 500 KB may cost: reading that much
 * YAML costs 150-250 ms by itself (the unfixed code accepted the alias case: the 422 shows it).
 */
const LARGE_DOCUMENT_CPU_BOUND_MS = 1000

/**
 * [label, YAML, what the message must name, CPU bound if not CPU_BOUND_MS]: each from the
 * issue or one limit of ParseLimits.
 */
const payloads: ReadonlyArray<readonly [string, string, string, number?]> = [
  ["parentheses 10,000 deep (20 KB)", withData(`{{${nested("(", "1", ")", 10_000)}}}`), "maxExpressionLength"],
  ["parentheses 2,000 deep", withData(`{{${nested("(", "1", ")", 2000)}}}`), "maxExpressionDepth"],
  ["lower( 5,000 deep", withData(`{{${nested("lower(", "'a'", ")", 5000)}}}`), "maxExpressionLength"],
  ["lower( 500 deep", withData(`{{${nested("lower(", "'a'", ")", 500)}}}`), "maxExpressionDepth"],
  ["arrays 1,500 deep in an expression", withData(`{{${nested("[", "1", "]", 1500)}}}`), "maxExpressionDepth"],
  ["ternaries 500 deep", withData(`{{${"a ? 1 : ".repeat(500)}2}}`), "maxExpressionDepth"],
  ["a JSONPath filter 1,500 deep", withData(`$.x[?(${nested("(", "@.a", ")", 1500)})]`), "maxExpressionDepth"],
  [
    "expressions past the connector's budget",
    withData("x").replace(
      "    result:\n      data: \"x\"",
      `    result:\n      data:\n${Array.from({ length: 40 }, (_, i) => `        f${i}: "{{${"a + ".repeat(900)}1}}"`).join("\n")}`
    ),
    "maxExpressionChars"
  ],
  ["YAML arrays 20,000 deep", `StackOne: 1.0.0\nactions: ${nested("[", "1", "]", 20_000)}\n`, "maxDepth"],
  ["an alias bomb", aliasBomb, "maxAliasCount"],
  // accepted before, storing 25 MB of canonical JSON from a 500 KB upload
  [
    "50 aliases of a 500 KB string",
    `${withData("x")}blob: &b "${"x".repeat(500_000)}"\ncopies: [${Array(50).fill("*b").join(", ")}]\n`,
    "maxExpandedChars",
    LARGE_DOCUMENT_CPU_BOUND_MS
  ],
  ["a document over 512 KiB", `${withData("x")}padding: "${"y".repeat(defaultParseLimits.maxBytes)}"\n`, "maxBytes"]
]

const storedVersions = (projectId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: number }>`
      SELECT count(*)::int AS n FROM connector_versions WHERE owner_project_id = ${projectId}`
    return Number(row!.n)
  }).pipe(Effect.orDie)

/** CPU milliseconds (user + system) this process spends running `effect`. */
const cpuTime = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const before = process.cpuUsage()
    const result = yield* effect
    const used = process.cpuUsage(before)
    return { result, cpuMs: (used.user + used.system) / 1000 }
  })

/** How many times a registration is measured at most before its CPU bound is held failed. */
const MEASUREMENTS = 3

/**
 * The least CPU time of up to `MEASUREMENTS` runs of `effect`, stopping at the first under
 * `boundMs`: a garbage collection, a JIT compilation or a busy sibling core can add 100 ms and
 * more to one run (CI once saw 285 ms against a 200 ms bound), while the unfixed parser
 * exceeded the bound by orders of magnitude on every run.
 */
const leastCpuTime = <A, E, R>(effect: Effect.Effect<A, E, R>, boundMs: number) =>
  Effect.gen(function*() {
    let least = yield* cpuTime(effect)
    for (let run = 1; run < MEASUREMENTS && least.cpuMs >= boundMs; run++) {
      const next = yield* cpuTime(effect)
      if (next.cpuMs < least.cpuMs) least = next
    }
    return least
  })

/**
 * Runs `effect` while another client keeps asking `/healthz` (at least once), and returns
 * what it returned with the latencies of those requests, each of which must be a 200.
 */
const whileHealthChecked = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const done = yield* Ref.make(false)
    const latencies: Array<number> = []
    const poll = Effect.gen(function*() {
      do {
        const started = performance.now()
        const health = yield* send(HttpClientRequest.get("/healthz"))
        latencies.push(performance.now() - started)
        expect(health.status).toBe(200)
      } while (!(yield* Ref.get(done)))
    })
    const poller = yield* Effect.fork(poll)
    const result = yield* effect
    yield* Ref.set(done, true)
    yield* Fiber.join(poller)
    return { result, latencies }
  })

layer(TestServer(), { excludeTestServices: true })("hostile connectors", (it) => {
  it.effect("expression and YAML bombs are refused with 422 at little CPU cost, store nothing and leave /healthz answering", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const register = (yaml: string) =>
        send(HttpClientRequest.post("/v2/connectors").pipe(withKey(key), json({ yaml })))

      // warm up the route (and the JIT) with a connector the server accepts
      const valid = connectorYaml({ key: "hostile_baseline", version: "1.0.0" })
      expect((yield* register(valid)).status).toBe(201)
      expect(yield* storedVersions(projectId)).toBe(1)

      for (const [label, yaml, limit, cpuBoundMs = CPU_BOUND_MS] of payloads) {
        // the registration's CPU alone: the health poller's work grows with the wall time a busy
        // machine takes, so it is not counted; the poller runs beside a second registration
        const { cpuMs, result: response } = yield* leastCpuTime(register(yaml), cpuBoundMs)
        const { result: again, latencies } = yield* whileHealthChecked(register(yaml))
        expect(again.status).toBe(422)
        const body = expectErrorBody(response, 422)
        expect({ label, message: body.message }).toEqual({ label, message: expect.stringContaining(`(${limit}`) })
        expect(cpuMs, `CPU ms for ${label}`).toBeLessThan(cpuBoundMs)
        yield* Effect.logInfo(
          `hostile connector "${label}": ${response.status} after ${cpuMs.toFixed(1)} ms CPU; ` +
            `/healthz max ${Math.max(...latencies).toFixed(1)} ms over ${latencies.length} requests`
        )
      }
      expect(yield* storedVersions(projectId)).toBe(1)
    }))

  it.effect("a document near the size limit with 40,000 issues is read off the event loop and refused", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      // linear now, but still about half a second of reading: the parse worker's, not the loop's
      const yaml = `StackOne: 1.0.0\ninfo: {title: Wide, key: wide, version: 1.0.0}\nactions: []\nscopeDefinitions:\n${
        Array.from({ length: 40_000 }, (_, i) => `  s${i}: 1\n`).join("")
      }`
      expect(Buffer.byteLength(yaml)).toBeLessThan(defaultParseLimits.maxBytes)
      const { result: response, latencies } = yield* whileHealthChecked(
        send(HttpClientRequest.post("/v2/connectors").pipe(withKey(key), json({ yaml })))
      )
      const body = expectErrorBody(response, 422)
      expect(body.message).toMatch(/^Invalid connector YAML: scopeDefinitions\.s0: expected object \(line \d+, col \d+\);.*; \.\.\. and 39980 more$/)
      expect(yield* storedVersions(projectId)).toBe(0)
      yield* Effect.logInfo(
        `40,000-issue document: /healthz max ${Math.max(...latencies).toFixed(1)} ms over ${latencies.length} requests`
      )
    }))
})
