import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { ServerLifecycle } from "../src/platform/fleet/ServerLifecycle.js"
import { clientFor } from "./support/Fixtures.js"
import { exited, serverEnv, startServing, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl, TestServer } from "./support/TestServer.js"
import { expectErrorBody, send } from "./support/Wire.js"

/*
 * /readyz is readiness, unlike /healthz: 503 in the documented error shape while the process
 * drains and while its database does not answer, ready again once it does.
 */

// provided outside too, so the test holds the instance the system handlers see (layers are shared by reference)
layer(TestServer().pipe(Layer.provideMerge(ServerLifecycle.Default)), { excludeTestServices: true })("readiness while draining", (it) => {
  it.effect("a draining process answers 503 'shutting down' (a typed ServiceUnavailable for the client); liveness stays 200", () =>
    Effect.gen(function*() {
      expect((yield* send(HttpClientRequest.get("/readyz"))).status).toBe(200)
      const lifecycle = yield* ServerLifecycle
      yield* lifecycle.drain(1_000)
      const answer = yield* send(HttpClientRequest.get("/readyz"))
      expect(expectErrorBody(answer, 503).message).toBe("The server is shutting down")
      const client = yield* clientFor("swy_not_a_key")
      const error = yield* Effect.flip(client.system.readyz())
      expect(error._tag).toBe("ServiceUnavailable")
      expect((yield* send(HttpClientRequest.get("/healthz"))).status).toBe(200)
    }))
})

/**
 * A TCP relay to PostgreSQL that can stop passing bytes (both ways, on every connection, new
 * ones too) and start again: a database that stops answering without refusing anything.
 */
const pausableRelay = (target: URL) =>
  new Promise<{ port: number; pause: () => void; resume: () => void; close: () => void }>((resolve) => {
    let paused = false
    const sockets = new Set<Net.Socket>()
    const track = (socket: Net.Socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
      socket.on("error", () => socket.destroy())
      if (paused) socket.pause()
    }
    const server = Net.createServer((client) => {
      const upstream = Net.connect(Number(target.port || 5432), target.hostname)
      track(client)
      track(upstream)
      client.pipe(upstream)
      upstream.pipe(client)
      client.on("close", () => upstream.destroy())
      upstream.on("close", () => client.destroy())
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as Net.AddressInfo).port,
        pause: () => {
          paused = true
          sockets.forEach((socket) => socket.pause())
        },
        resume: () => {
          paused = false
          sockets.forEach((socket) => socket.resume())
        },
        close: () => {
          sockets.forEach((socket) => socket.destroy())
          server.close()
        }
      }))
  })

const readyz = async (base: string) => {
  const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(120_000) })
  return { status: response.status, body: (await response.json()) as { message?: string; status?: string } }
}

describe.skipIf(process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === "")("readiness and the database", () => {
  it.scoped("503 'the database does not answer' while PostgreSQL is silent, ready again once it answers", () =>
    Effect.gen(function*() {
      const databaseUrl = new URL((yield* freshDatabaseUrl)!)
      const relay = yield* Effect.acquireRelease(Effect.promise(() => pausableRelay(databaseUrl)), (relay) => Effect.sync(relay.close))
      const throughRelay = new URL(databaseUrl)
      throughRelay.hostname = "127.0.0.1"
      throughRelay.port = String(relay.port)
      yield* Effect.promise(async () => {
        const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-ready-"))
        const encryptionKey = Crypto.randomBytes(32).toString("hex")
        const { base, server } = await startServing("src/main.ts", [], (port) =>
          serverEnv(dataDir, port, { DATABASE_URL: throughRelay.toString(), SWITCHYARD_ENCRYPTION_KEY: encryptionKey }), {
          inProcess: true
        })
        try {
          expect(await readyz(base)).toEqual({ status: 200, body: { status: "ready" } })

          relay.pause()
          const silent = await readyz(base)
          expect(silent.status).toBe(503)
          expect(silent.body.message).toBe("The database does not answer")
          // liveness is the process, not its database
          expect((await fetch(`${base}/healthz`)).status).toBe(200)

          relay.resume()
          await waitFor(async () => (await readyz(base)).status === 200, "ready again")
        } finally {
          relay.resume()
          const stopped = exited(server.child)
          server.child.kill("SIGTERM")
          await stopped
        }
      })
    }), 600_000)
})
