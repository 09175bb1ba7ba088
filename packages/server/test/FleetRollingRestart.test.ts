import { describe, expect, it } from "@effect/vitest"
import { startSandbox } from "@switchyard/sandbox"
import { Context, Effect, Layer } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Os from "node:os"
import * as Path from "node:path"
import {
  type Answer,
  isRunning,
  request,
  type ServerHandle,
  startedWorkers,
  waitForWorkers,
  workerExited
} from "./support/FleetSupport.js"
import { gatedProvider } from "./support/GatedProvider.js"
import { OtlpReceiverLive, OtlpReceiverService } from "./support/OtlpReceiver.js"
import { exited, freePort, serverEnv, start, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl } from "./support/TestServer.js"

/*
 * A rolling restart loses no request (issue 15): fifty clients, each on a keep-alive connection
 * of its own, list accounts through a cluster of three workers while one worker gets SIGTERM.
 * Every request must be answered 200: a client never retries, so a reset connection or a
 * request nobody answers fails the test.
 *
 * Which worker answered which request: every request carries a `traceparent` of its own (not
 * sampled, so nothing is exported for it) and the worker's "Sent HTTP response" line names its
 * trace id. Tracing is on only for that; its collector is a receiver in the test.
 *
 * Nothing waits on time: the SIGTERM follows a count of answers and a request held at the
 * provider on the worker's connection (released once the worker logged that it drains); the
 * clients send a fixed number of requests each after that log line, and more clients come
 * then, so the load surely spans the drain.
 */

const KEY = "swy_test_rolling_key_0123456789abcdef012"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }
const postgres = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL.length > 0
const WORKERS = 3
const CLIENTS = 50
/** Answers to the load before the worker is chosen and stopped. */
const ANSWERS_BEFORE_SIGTERM = 150
/** Requests each client sends once the test saw the worker drain. */
const AFTER_DRAIN = 6
/** Clients that come only then: their connections are new ones. */
const NEWCOMERS = 10
/** A bound on each client's requests before that (reached only if the drain never comes). */
const MAX_BEFORE_DRAIN = 300

const hex = (bytes: number) => Crypto.randomBytes(bytes).toString("hex")

/** One request as its client saw it. */
interface Sent {
  readonly traceId: string
  readonly sentAt: number
  readonly answeredAt: number
  /** Sent after the test saw the stopped worker log that it drains. */
  readonly afterDrain: boolean
  readonly answer?: Answer
  /** A network failure: the request was lost (no retry). */
  readonly error?: string
}

const send = async (
  url: string,
  agent: Http.Agent,
  afterDrain: boolean,
  options: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: unknown } = {}
): Promise<Sent> => {
  const traceId = hex(16)
  const sentAt = Date.now()
  const headers = { ...auth, ...options.headers, traceparent: `00-${traceId}-${hex(8)}-00` }
  try {
    const answer = await request(url, { ...options, headers, agent })
    return { traceId, sentAt, answeredAt: Date.now(), afterDrain, answer }
  } catch (error) {
    return { traceId, sentAt, answeredAt: Date.now(), afterDrain, error: String(error) }
  }
}

/** Each answer's log line: which worker answered which request (trace id), and its status. */
const loggedAnswers = (server: ServerHandle) =>
  server.output().split("\n")
    .filter((line) => line.includes(`message="Sent HTTP response"`))
    .map((line) => ({
      worker: Number(line.match(/ worker=(\d+)/)?.[1]),
      traceId: line.match(/ trace_id=([0-9a-f]{32})/)?.[1],
      status: Number(line.match(/ http\.status=(\d+)/)?.[1])
    }))

const drainLogged = (server: ServerHandle, worker: number) =>
  server.output().split("\n").some((line) =>
    line.includes(`message="draining: `) && new RegExp(` worker=${worker}( |$)`).test(line)
  )

const stop = async (server: ServerHandle) => {
  const stopped = exited(server.child)
  server.child.kill("SIGTERM")
  return stopped
}

describe.skipIf(!postgres)("a rolling restart of a fleet on PostgreSQL", () => {
  it.scoped("SIGTERM to one of three workers under load loses no request: in-flight ones finish, new ones go to the others", () =>
    Effect.gen(function*() {
      const databaseUrl = yield* freshDatabaseUrl
      const collector = Context.get(yield* Layer.build(OtlpReceiverLive), OtlpReceiverService)
      const sandbox = yield* Effect.acquireRelease(
        Effect.promise(() => startSandbox({ seed: 7 })),
        (sandbox) => Effect.promise(() => sandbox.close())
      )
      const provider = yield* gatedProvider(sandbox.ats.url)
      const agents: Array<Http.Agent> = []
      yield* Effect.addFinalizer(() => Effect.sync(() => agents.forEach((agent) => agent.destroy())))
      const keepAlive = () => {
        const agent = new Http.Agent({ keepAlive: true, maxSockets: 1 })
        agents.push(agent)
        return agent
      }

      yield* Effect.promise(async () => {
        const port = await freePort()
        const base = `http://127.0.0.1:${port}`
        const server = start("src/main.ts", [], serverEnv(Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-rolling-")), port, {
          DATABASE_URL: databaseUrl!,
          SWITCHYARD_WORKERS: String(WORKERS),
          SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
          SWITCHYARD_ENCRYPTION_KEY: Crypto.randomBytes(32).toString("hex"),
          SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
          LOG_LEVEL: "INFO",
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          // the held provider call and the drain last as long as the test needs, however slow the machine
          SWITCHYARD_PROVIDER_TIMEOUT_MS: "600000",
          SWITCHYARD_PROVIDER_DEADLINE_MS: "900000",
          SWITCHYARD_SHUTDOWN_GRACE_SECONDS: "600"
        }), { inProcess: true })
        let code: number | null = null
        try {
          await waitForWorkers(server, WORKERS)
          // every worker up: each answered one of the readiness checks (on new connections)
          await waitFor(async () => {
            await Promise.all(Array.from({ length: WORKERS }, () => request(`${base}/readyz`).catch(() => undefined)))
            return new Set(loggedAnswers(server).filter((line) => line.status === 200).map((line) => line.worker)).size >= WORKERS
          }, `${WORKERS} workers answering`)

          const account = await request(`${base}/v2/accounts`, {
            method: "POST",
            headers: auth,
            body: {
              connector_key: "greenhouse",
              name: "Rolling",
              owner_id: "owner-rolling",
              credentials: { apiKey: sandbox.ats.apiKey },
              settings: { base_url: `${provider.url}/v1`, onBehalfOf: String(sandbox.ats.onBehalfOf) }
            }
          })
          expect(account.status, account.body).toBe(201)
          const accountId = (JSON.parse(account.body) as { id: string }).id

          // the load: each client on its own keep-alive connection, no retry on an error
          const state = { answered: 0, drainSeen: false }
          const client = async () => {
            const agent = keepAlive()
            const sent: Array<Sent> = []
            const next = async () => {
              sent.push(await send(`${base}/v2/accounts`, agent, state.drainSeen))
              state.answered++
            }
            while (!state.drainSeen && sent.length < MAX_BEFORE_DRAIN) await next()
            for (let n = 0; n < AFTER_DRAIN; n++) await next()
            return sent
          }
          const load = Promise.all(Array.from({ length: CLIENTS }, client)).then((all) => all.flat())
          await waitFor(() => state.answered >= ANSWERS_BEFORE_SIGTERM, `${ANSWERS_BEFORE_SIGTERM} answers`)

          // The worker to stop: the one that answered a first request on the probe's connection.
          // On that connection, right after, a call to the provider that the gate holds: a
          // request surely in flight on that worker when it gets SIGTERM.
          const probe = keepAlive()
          provider.gate.hold()
          const first = await send(`${base}/v2/accounts`, probe, false)
          const held = send(`${base}/actions/rpc`, probe, false, {
            method: "POST",
            headers: { "x-account-id": accountId },
            body: { action: "ats_list_applications", query: { page_size: 1 } }
          })
          await waitFor(() => provider.gate.waiting() === 1, "the held call at the provider")
          await waitFor(() => loggedAnswers(server).some((line) => line.traceId === first.traceId), "the first probe's log line")
          const stopped = loggedAnswers(server).find((line) => line.traceId === first.traceId)!.worker
          const worker = startedWorkers(server).find((started) => started.id === stopped)!

          const killedAt = Date.now()
          process.kill(worker.pid, "SIGTERM")
          await waitFor(() => drainLogged(server, worker.id), "the stopped worker's drain")
          state.drainSeen = true
          provider.gate.release()
          const newcomers = Promise.all(Array.from({ length: NEWCOMERS }, client)).then((all) => all.flat())

          const sent = [...await load, ...await newcomers, first, await held]
          const heldCall = sent.at(-1)!
          await waitFor(() => workerExited(server, worker.id), "the stopped worker's exit")
          expect(server.output()).toMatch(new RegExp(`worker ${worker.id} exited with code 0; a new one starts`))

          // no request lost: every one answered 200, none with a network error, none 503
          expect(sent.filter((one) => one.error !== undefined).map((one) => one.error)).toEqual([])
          expect(sent.filter((one) => one.answer?.status !== 200).map((one) => [one.answer?.status, one.answer?.body])).toEqual([])
          // each answered once, by one worker, which logged the status the client got
          await waitFor(() => {
            const logged = new Set(loggedAnswers(server).map((line) => line.traceId))
            return sent.every((one) => logged.has(one.traceId))
          }, "every answer's log line")
          const traces = new Set(sent.map((one) => one.traceId))
          const lines = loggedAnswers(server).filter((line) => line.traceId !== undefined && traces.has(line.traceId))
          expect(lines).toHaveLength(sent.length)
          const byTrace = new Map(lines.map((line) => [line.traceId!, line]))
          for (const one of sent) expect(byTrace.get(one.traceId)!.status).toBe(200)
          const answeredBy = (one: Sent) => byTrace.get(one.traceId)!.worker
          const onStopped = sent.filter((one) => answeredBy(one) === worker.id)

          // the stopped worker served the load before its SIGTERM
          expect(onStopped.filter((one) => one !== first && one.answeredAt < killedAt).length).toBeGreaterThan(0)
          // the call in flight on it at the SIGTERM finished, and told the client to leave
          expect(heldCall.answer!.reusedSocket).toBe(true)
          expect(answeredBy(heldCall)).toBe(worker.id)
          expect(heldCall.answer!.connection).toBe("close")
          // requests it got once draining were answered too, each closing its connection; no
          // other worker closed one
          const whileDraining = onStopped.filter((one) => one.afterDrain)
          expect(whileDraining.filter((one) => one.answer!.connection !== "close")).toEqual([])
          expect(sent.filter((one) => one.answer!.connection === "close" && answeredBy(one) !== worker.id)).toEqual([])
          // new connections went to the others (the listener was closed): the newcomers' and
          // those of clients the stopped worker had asked to leave ...
          const newConnections = sent.filter((one) => one.afterDrain && !one.answer!.reusedSocket)
          expect(newConnections.length).toBeGreaterThanOrEqual(NEWCOMERS)
          expect(newConnections.filter((one) => answeredBy(one) === worker.id)).toEqual([])
          // ... and the load went on through the restart: every client sent its requests after the drain
          expect(sent.filter((one) => one.afterDrain)).toHaveLength((CLIENTS + NEWCOMERS) * AFTER_DRAIN)

          // a replacement starts and serves
          await waitForWorkers(server, WORKERS + 1)
          const replacement = startedWorkers(server)[WORKERS]!
          await waitFor(async () => {
            await request(`${base}/readyz`).catch(() => undefined)
            return loggedAnswers(server).some((line) => line.worker === replacement.id && line.status === 200)
          }, "the replacement answering")
        } finally {
          // idle keep-alive connections would hold the workers' drains until their timeout
          agents.forEach((agent) => agent.destroy())
          code = await stop(server)
        }
        expect(code).toBe(0)
        for (const started of startedWorkers(server)) expect(isRunning(started.pid)).toBe(false)
      })
    }), 600_000)
})
