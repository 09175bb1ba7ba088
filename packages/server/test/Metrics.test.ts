import { describe, expect, it } from "@effect/vitest"
import { startSandbox } from "@switchyard/sandbox"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format"
import { exited, freePort, serverEnv, startServing, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl } from "./support/TestServer.js"

/*
 * GET /metrics of a real server process, parsed with a Prometheus text-format parser: names,
 * types and labels, counters that move as calls are made, the token rule and METRICS_PORT.
 * And the one log line per request with LOG_FORMAT=json.
 */

const KEY = "swy_test_metrics_key_0123456789abcdef"
const METRICS_TOKEN = "metrics-token-0123456789abcdef"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }
const TIMEOUT = 120_000

type Sandbox = Awaited<ReturnType<typeof startSandbox>>

const request = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT) })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(`${base}${path}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })

const family = (families: ReadonlyArray<ParsedFamily>, name: string) => {
  const found = families.find((candidate) => candidate.name === name)
  if (found === undefined) throw new Error(`no metric ${name}`)
  return found
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none yet). */
const sample = (families: ReadonlyArray<ParsedFamily>, name: string, labels: Record<string, string>) => {
  const found = families.find((candidate) => candidate.name === name)?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value)
  )
  return found === undefined ? 0 : Number(found.value ?? found.count)
}

const scrape = async (url: string, token = METRICS_TOKEN) => {
  const answer = await request(url, { headers: { authorization: `Bearer ${token}` } })
  expect(answer.status).toBe(200)
  expect(answer.headers.get("content-type")).toContain("text/plain")
  return Object.assign(parsePrometheusTextFormat(answer.text), { text: answer.text })
}

/**
 * A histogram's `_count` for one label set, read from the text: the parser folds a labelled
 * histogram's series into one (it keeps labels for counters and gauges only).
 */
const histogramCount = (text: string, name: string, labels: string) =>
  Number(new RegExp(`^${name}_count\\{${labels.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0)

/** A webhook receiver on loopback that answers 200 and counts what it got. */
const startReceiver = () =>
  new Promise<{ readonly url: string; readonly count: () => number; readonly close: () => Promise<void> }>((resolve) => {
    let count = 0
    const server = Http.createServer((incoming, response) => {
      incoming.resume()
      incoming.on("end", () => {
        count++
        response.end("ok")
      })
    }).listen(0, "127.0.0.1", () => {
      const { port } = server.address() as Net.AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        count: () => count,
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })

/** A server process on PostgreSQL (DATABASE_URL, as CI) or the embedded default. */
const startServer = (databaseUrl: string | undefined, extra: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-metrics-"))
      const encryptionKey = Crypto.randomBytes(32).toString("hex")
      const { base, server } = await startServing("src/main.ts", [], (port) =>
        serverEnv(dataDir, port, {
          SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
          SWITCHYARD_ENCRYPTION_KEY: encryptionKey,
          SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
          SWITCHYARD_WEBHOOK_POLL_MS: "50",
          ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
          ...extra
        }), { inProcess: true })
      return { base, server }
    }),
    ({ server }) =>
      Effect.promise(async () => {
        const stopped = exited(server.child)
        server.child.kill("SIGTERM")
        await stopped
      })
  )

const sandboxLive = Effect.acquireRelease(
  Effect.promise(() => startSandbox({ seed: 41 })),
  (sandbox: Sandbox) => Effect.promise(() => sandbox.close())
)

const greenhouseAccount = (sandbox: Sandbox) => ({
  connector_key: "greenhouse",
  name: "Metrics Recruiting",
  owner_id: "owner-metrics",
  owner_name: "Ada Lovelace",
  owner_username: "ada",
  credentials: { apiKey: sandbox.ats.apiKey },
  settings: { base_url: sandbox.ats.baseUrl, onBehalfOf: String(sandbox.ats.onBehalfOf) }
})

describe("metrics and request logs", () => {
  it.scoped("main-port /metrics behind its token: counters move with calls, one JSON log line per request, no secret", () =>
    Effect.gen(function*() {
      const databaseUrl = yield* freshDatabaseUrl
      const sandbox = yield* sandboxLive
      const receiver = yield* Effect.acquireRelease(Effect.promise(startReceiver), (receiver) => Effect.promise(receiver.close))
      const { base, server } = yield* startServer(databaseUrl, {
        SWITCHYARD_METRICS_TOKEN: METRICS_TOKEN,
        LOG_FORMAT: "json",
        LOG_LEVEL: "INFO"
      })
      yield* Effect.promise(async () => {
        const metricsUrl = `${base}/metrics`
        // the token: none or a wrong one is 401 in the API's error shape, with a Bearer challenge
        for (const headers of [{}, { authorization: "Bearer wrong-token-0123456789" }, auth]) {
          const refused = await request(metricsUrl, { headers })
          expect(refused.status).toBe(401)
          expect(JSON.parse(refused.text)).toMatchObject({ statusCode: 401, message: expect.any(String) })
          expect(refused.headers.get("www-authenticate")).toContain("Bearer")
        }
        // operator-facing: not in the public OpenAPI document
        expect((await request(`${base}/openapi.json`)).text).not.toContain("/metrics")

        const before = await scrape(metricsUrl)
        expect(family(before, "switchyard_http_requests_total").type).toBe("COUNTER")
        expect(family(before, "switchyard_http_request_duration_seconds").type).toBe("HISTOGRAM")
        expect(family(before, "switchyard_request_log_queue_depth").type).toBe("GAUGE")
        expect(family(before, "process_cpu_user_seconds_total").type).toBe("COUNTER")
        expect(family(before, "nodejs_eventloop_lag_seconds").type).toBe("GAUGE")
        expect(family(before, "switchyard_db_pool_connections").type).toBe("GAUGE")
        expect(sample(before, "switchyard_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1)
        expect(sample(before, "switchyard_db_pool_connections", { state: "waiting" })).toBeGreaterThanOrEqual(0)

        const hook = await post(base, "/webhooks", { url: receiver.url, events: ["account.created"] })
        expect(hook.status).toBe(201)
        const account = await post(base, "/v2/accounts", greenhouseAccount(sandbox))
        expect(account.status).toBe(201)
        const accountId = (JSON.parse(account.text) as { id: string }).id
        const headers = { ...auth, "x-account-id": accountId }
        for (let i = 0; i < 2; i++) {
          expect((await request(`${base}/unified/ats/applications?page_size=3`, { headers })).status).toBe(200)
        }
        expect((await request(`${base}/v2/accounts/no-such-account`, { headers: auth })).status).toBe(404)
        expect((await request(`${base}/no/such/route/1234`, { headers: auth })).status).toBe(404)
        await waitFor(() => receiver.count() >= 1, "the webhook delivery")

        const route = { method: "GET", route: "/unified/ats/applications", status: "200" }
        const provider = { connector: "greenhouse", action: "ats_list_applications", outcome: "success" }
        let after = before
        // the delivery's attempt is counted once its outcome is known, a moment after the receiver saw it
        await waitFor(async () => {
          after = await scrape(metricsUrl)
          return sample(after, "switchyard_webhook_delivery_attempts_total", { outcome: "delivered" }) >= 1
        }, "the delivery counted")
        expect(sample(after, "switchyard_http_requests_total", route) - sample(before, "switchyard_http_requests_total", route))
          .toBe(2)
        const durations = (text: string) =>
          histogramCount(text, "switchyard_http_request_duration_seconds", `method="GET",route="/unified/ats/applications"`)
        expect(durations(after.text) - durations(before.text)).toBe(2)
        expect(sample(after, "switchyard_http_requests_total", { route: "/v2/accounts/:id", status: "404" })).toBe(1)
        expect(sample(after, "switchyard_http_requests_total", { route: "unmatched", status: "404" })).toBe(1)
        expect(sample(after, "switchyard_http_requests_total", { route: "/metrics", status: "401" })).toBe(3)
        expect(sample(after, "switchyard_provider_calls_total", provider)).toBeGreaterThanOrEqual(2)
        expect(histogramCount(
          after.text,
          "switchyard_provider_call_duration_seconds",
          `connector="greenhouse",action="ats_list_applications",outcome="success"`
        )).toBeGreaterThanOrEqual(2)
        expect(family(after, "switchyard_provider_call_duration_seconds").type).toBe("HISTOGRAM")

        // label values are bounded: no ids, no raw paths
        const labelValues = after.flatMap((metric) => metric.metrics.flatMap((sampled) => Object.values(sampled.labels ?? {})))
        expect(labelValues.some((value) => value.includes(accountId) || value.includes("no-such-account") || value.includes("1234")))
          .toBe(false)

        // one JSON line per request: method, route, status, duration; no query, id, key or credential
        const lines = server.output().split("\n").filter((line) => line.startsWith("{"))
        const requests = lines.map((line) => JSON.parse(line) as { message: unknown; annotations: Record<string, unknown> })
          .filter((entry) => entry.annotations?.["http.route"] !== undefined)
        const unified = requests.filter((entry) => entry.annotations["http.route"] === "/unified/ats/applications")
        expect(unified).toHaveLength(2)
        expect(unified[0]!.annotations).toMatchObject({ "http.method": "GET", "http.status": 200, duration_ms: expect.any(Number) })
        expect(requests.filter((entry) => entry.annotations["http.route"] === "/metrics").length).toBeGreaterThanOrEqual(4)
        const output = server.output()
        for (const secret of [KEY, METRICS_TOKEN, sandbox.ats.apiKey, accountId, "page_size", "no-such-account"]) {
          expect(output).not.toContain(secret)
        }
      })
    }), 600_000)

  it.scoped("METRICS_PORT serves /metrics plainly; without a token the main port has none", () =>
    Effect.gen(function*() {
      const databaseUrl = yield* freshDatabaseUrl
      const metricsPort = yield* Effect.promise(freePort)
      const { base } = yield* startServer(databaseUrl, { METRICS_PORT: String(metricsPort) })
      yield* Effect.promise(async () => {
        const onMain = await request(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        expect(onMain.status).toBe(404)
        expect(JSON.parse(onMain.text)).toMatchObject({ statusCode: 404 })
        expect((await request(`${base}/healthz`)).status).toBe(200)
        const plain = await request(`http://127.0.0.1:${metricsPort}/metrics`)
        expect(plain.status).toBe(200)
        const families = parsePrometheusTextFormat(plain.text)
        expect(sample(families, "switchyard_http_requests_total", { route: "/healthz", status: "200" })).toBeGreaterThanOrEqual(1)
        expect(sample(families, "switchyard_http_requests_total", { route: "/metrics", status: "404" })).toBe(1)
        const elsewhere = await request(`http://127.0.0.1:${metricsPort}/v2/accounts`)
        expect(elsewhere.status).toBe(404)
        expect(JSON.parse(elsewhere.text)).toMatchObject({ statusCode: 404 })
      })
    }), 600_000)
})
