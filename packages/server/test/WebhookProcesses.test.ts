import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { Webhook } from "standardwebhooks"
import { exited, serverEnv, type start, startServing, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl } from "./support/TestServer.js"

/*
 * Webhook delivery across real server processes: a server killed (SIGKILL) while a delivery
 * is in flight loses no event, the restarted one sends it; two processes on one PostgreSQL
 * database send each event once.
 */

const KEY = "swy_test_webhooks_key_0123456789abcdef"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }
const REQUEST_TIMEOUT = 60_000

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...auth, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT)
  })
  return { status: response.status, json: (await response.json()) as Record<string, any> }
}

const account = (n: number) => ({
  connector_key: "greenhouse",
  name: `Account ${n}`,
  owner_id: `owner-${n}`,
  credentials: { apiKey: "gh-secret" },
  settings: { subdomain: "acme" }
})

interface Received {
  readonly headers: Record<string, string>
  readonly body: string
}

/** A receiver that answers 200, or holds requests unanswered while `holding` is set. */
const startReceiver = () =>
  new Promise<{ url: string; received: Array<Received>; hold: (on: boolean) => void; close: () => Promise<void> }>(
    (resolve) => {
      const received: Array<Received> = []
      let holding = false
      const server = Http.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const headers: Record<string, string> = {}
          for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value
          received.push({ headers, body: Buffer.concat(chunks).toString("utf8") })
          if (holding) return
          response.writeHead(200).end("ok")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        resolve({
          url: `http://127.0.0.1:${(server.address() as Net.AddressInfo).port}/hook`,
          received,
          hold: (on) => void (holding = on),
          close: () =>
            new Promise((done) => {
              server.closeAllConnections()
              server.close(() => done())
            })
        })
      })
    }
  )

const environmentFor = (databaseUrl: string | undefined, extra: Record<string, string>) => {
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-webhooks-"))
  const encryptionKey = Crypto.randomBytes(32).toString("hex")
  return (port: number) =>
    serverEnv(dataDir, port, {
      SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
      SWITCHYARD_ENCRYPTION_KEY: encryptionKey,
      SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
      SWITCHYARD_WEBHOOK_POLL_MS: "20",
      SWITCHYARD_WEBHOOK_RETRY_SECONDS: "0,0,0",
      ...extra,
      ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl })
    })
}

const deliveriesOf = async (base: string, endpointId: string) =>
  (await call(base, "GET", `/webhooks/${endpointId}/deliveries?page_size=100`)).json.data as ReadonlyArray<Record<string, any>>

const stopAll = async (servers: ReadonlyArray<ReturnType<typeof start>>) => {
  for (const server of servers) {
    const stopped = exited(server.child)
    server.child.kill("SIGTERM")
    await stopped
  }
}

const crashScenario = async (databaseUrl: string | undefined) => {
  const receiver = await startReceiver()
  // a short lease (longer than an attempt, as the config requires), so the restarted process
  // takes the dead one's delivery over soon; whether the held attempt times out before the kill
  // or not, the event must arrive under one webhook-id
  // (on a busy machine held attempts may time out and be retried before the kill: a schedule
  // of ten immediate retries keeps the delivery pending, not failed, until the restart)
  const environment = environmentFor(databaseUrl, {
    SWITCHYARD_WEBHOOK_LEASE_SECONDS: "2",
    SWITCHYARD_WEBHOOK_TIMEOUT_MS: "1500",
    SWITCHYARD_WEBHOOK_RETRY_SECONDS: "0,0,0,0,0,0,0,0,0,0"
  })
  const servers: Array<ReturnType<typeof start>> = []
  // the restart may land on another port: the delivery it takes over is in the database
  let base = ""
  const startServer = async () => {
    const started = await startServing("src/main.ts", [], environment, {
      inProcess: true,
      started: (server) => servers.push(server)
    })
    base = started.base
    return started.server
  }
  try {
    const first = await startServer()
    const endpoint = await call(base, "POST", "/webhooks", { url: receiver.url, events: ["account.created"] })
    expect(endpoint.status).toBe(201)
    receiver.hold(true)
    const created = await call(base, "POST", "/v2/accounts", account(1))
    expect(created.status).toBe(201)
    // the delivery is in flight, unanswered, when the process dies
    await waitFor(() => receiver.received.length >= 1, "the held delivery")
    const killed = exited(first.child)
    first.child.kill("SIGKILL")
    await killed
    receiver.hold(false)

    await startServer()
    await waitFor(
      async () => (await deliveriesOf(base, endpoint.json.id)).every((delivery) => delivery.status === "succeeded"),
      "the delivery to succeed after the restart",
      120_000
    )
    const webhook = new Webhook(endpoint.json.secret)
    const events = receiver.received.map((request) => webhook.verify(request.body, request.headers) as Record<string, any>)
    expect(events.length).toBeGreaterThanOrEqual(2)
    // the same event, sent again under the same webhook-id: a receiver deduplicates on it
    expect(new Set(events.map((event) => event.id)).size).toBe(1)
    expect(events[0]).toMatchObject({ type: "account.created", data: { id: created.json.id } })
  } finally {
    await stopAll(servers)
    await receiver.close()
  }
}

const twoProcessScenario = async (databaseUrl: string) => {
  const receiver = await startReceiver()
  const environment = environmentFor(databaseUrl, {})
  const servers: Array<ReturnType<typeof start>> = []
  const startServer = async () => {
    const started = await startServing("src/main.ts", [], environment, {
      inProcess: true,
      started: (server) => servers.push(server)
    })
    return started.base
  }
  try {
    // one after the other: the first migrates the database
    const first = await startServer()
    const second = await startServer()
    const endpoint = await call(first, "POST", "/webhooks", { url: receiver.url, events: ["account.created"] })
    expect(endpoint.status).toBe(201)
    const COUNT = 30
    const created = await Promise.all(
      Array.from({ length: COUNT }, (_, n) => call(n % 2 === 0 ? first : second, "POST", "/v2/accounts", account(n)))
    )
    expect(created.map(({ status }) => status)).toEqual(Array(COUNT).fill(201))
    await waitFor(
      async () => {
        const deliveries = await deliveriesOf(second, endpoint.json.id)
        return deliveries.length === COUNT && deliveries.every((delivery) => delivery.status === "succeeded")
      },
      "every delivery to succeed",
      120_000
    )
    const webhook = new Webhook(endpoint.json.secret)
    const ids = receiver.received.map((request) => (webhook.verify(request.body, request.headers) as { data: { id: string } }).data.id)
    // each event exactly once, though both processes were delivering
    expect(ids).toHaveLength(COUNT)
    expect(new Set(ids)).toEqual(new Set(created.map(({ json }) => json.id)))
    const deliveries = await deliveriesOf(first, endpoint.json.id)
    expect(deliveries.every((delivery) => delivery.attempts === 1)).toBe(true)
  } finally {
    await stopAll(servers)
    await receiver.close()
  }
}

describe("webhook delivery across processes", () => {
  it.scoped("a server killed mid-delivery loses no event: the restarted one sends it", () =>
    Effect.gen(function*() {
      const databaseUrl = yield* freshDatabaseUrl
      yield* Effect.promise(() => crashScenario(databaseUrl))
    }), 600_000)

  it.scoped.skipIf(process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === "")(
    "two server processes on one database deliver each event once",
    () =>
      Effect.gen(function*() {
        const databaseUrl = yield* freshDatabaseUrl
        yield* Effect.promise(() => twoProcessScenario(databaseUrl!))
      }),
    600_000
  )
})
