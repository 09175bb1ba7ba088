import { describe, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import * as Net from "node:net"
import { embeddedPostgres, type PostgresAddress } from "../src/platform/database/EmbeddedPostgres.js"

/*
 * The embedded database is one PostgreSQL session behind a socket many connections share
 * (EmbeddedPostgresWire.ts): a connection's extended-query sequence or transaction runs
 * whole before another connection's messages reach the session.
 */

/** One backend message: its type letter and body. */
interface Message {
  readonly type: string
  readonly body: Buffer
}

const message = (type: string, ...parts: ReadonlyArray<Buffer>) => {
  const body = Buffer.concat(parts)
  const header = Buffer.alloc(5)
  header.write(type, 0)
  header.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([header, body])
}
const cstring = (text: string) => Buffer.from(`${text}\0`)
const int16 = (value: number) => Buffer.from([value >> 8, value & 0xff])
const int32 = (value: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeInt32BE(value)
  return bytes
}

const parse = (sql: string) => message("P", cstring(""), cstring(sql), int16(0))
const bind = message("B", cstring(""), cstring(""), int16(0), int16(0), int16(0))
const execute = message("E", cstring(""), int32(0))
const sync = message("S")
const flush = message("H")

/** A raw PostgreSQL-wire connection: what it sends, and the backend messages it received. */
const connect = async (address: PostgresAddress) => {
  const socket = Net.connect(address.port, address.host)
  const received: Array<Message> = []
  let pending = Buffer.alloc(0)
  let raw = Buffer.alloc(0)
  const waiters = new Set<() => void>()
  socket.on("data", (chunk) => {
    raw = Buffer.concat([raw, chunk])
    pending = Buffer.concat([pending, chunk])
    while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
      const length = 1 + pending.readInt32BE(1)
      received.push({ type: String.fromCharCode(pending[0]!), body: pending.subarray(5, length) })
      pending = pending.subarray(length)
    }
    for (const waiter of waiters) waiter()
  })
  /** Resolves once `check` holds for what was received. */
  const until = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      const waiter = () => {
        if (!check()) return
        waiters.delete(waiter)
        resolve()
      }
      waiters.add(waiter)
      waiter()
    })
  const send = (...messages: ReadonlyArray<Buffer>) =>
    new Promise<void>((resolve, reject) => socket.write(Buffer.concat(messages), (error) => error ? reject(error) : resolve()))
  const readyCount = () => received.filter((m) => m.type === "Z").length
  const startup = Buffer.concat([
    int32(196608),
    cstring("user"),
    cstring("postgres"),
    cstring("database"),
    cstring("postgres"),
    Buffer.from([0])
  ])
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
  await send(Buffer.concat([int32(startup.length + 4), startup]))
  await until(() => readyCount() === 1)
  return {
    socket,
    received,
    raw: () => raw,
    until,
    send,
    readyCount,
    /** The text values of every DataRow received so far. */
    rows: () =>
      received.filter((m) => m.type === "D").map((m) => {
        const length = m.body.readInt32BE(2)
        return m.body.subarray(6, 6 + length).toString()
      }),
    errors: () => received.filter((m) => m.type === "E").map((m) => m.body.toString().replace(/\0/g, " ").trim())
  }
}

/** A round trip through the server's event loop that needs no turn of the session. */
const serverLoopBarrier = async (address: PostgresAddress) => {
  const socket = Net.connect(address.port, address.host)
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
  const answered = new Promise<Buffer>((resolve) => socket.once("data", resolve))
  socket.write(Buffer.concat([int32(8), int32(80877103)])) // SSLRequest
  expect((await answered).toString()).toBe("N")
  socket.destroy()
}

describe("embedded PostgreSQL's wire", () => {
  it.live("keeps a connection's extended-query sequence whole while another connection sends its own", () =>
    Effect.gen(function*() {
      const address = yield* embeddedPostgres(":memory:", { share: false })
      const rows = yield* Effect.promise(async () => {
        const a = await connect(address)
        const b = await connect(address)
        // A prepares its unnamed statement and stops before Bind.
        await a.send(parse("SELECT 'from a' AS who"), flush)
        await a.until(() => a.received.some((m) => m.type === "1"))
        // B sends a whole sequence with its own unnamed statement, which the server has read
        // before A goes on: a session that took it now would lose A's statement.
        await b.send(parse("SELECT 'from b' AS who"), bind, execute, sync)
        await serverLoopBarrier(address)
        await a.send(bind, execute, sync)
        await Promise.all([a.until(() => a.readyCount() === 2), b.until(() => b.readyCount() === 2)])
        const answers = { a: { rows: a.rows(), errors: a.errors() }, b: { rows: b.rows(), errors: b.errors() } }
        a.socket.destroy()
        b.socket.destroy()
        return answers
      })
      expect(rows).toEqual({ a: { rows: ["from a"], errors: [] }, b: { rows: ["from b"], errors: [] } })
    }).pipe(Effect.scoped))

  it.live("rolls back what a connection left open when it goes away, and serves the next one", () =>
    Effect.gen(function*() {
      const address = yield* embeddedPostgres(":memory:", { share: false })
      yield* Effect.promise(async () => {
        const a = await connect(address)
        await a.send(message("Q", cstring("CREATE TABLE t (v text)")))
        await a.until(() => a.readyCount() === 2)
        await a.send(message("Q", cstring("BEGIN; INSERT INTO t VALUES ('left open')")))
        await a.until(() => a.readyCount() === 3)
        // half a sequence on top of an open transaction, then gone
        await a.send(parse("SELECT 1"))
        a.socket.destroy()
      })
      const rows = yield* Effect.flatMap(PgClient.PgClient, (sql) =>
        sql<{ n: number; open: boolean }>`
          SELECT (SELECT count(*)::int FROM t) AS n, now() <> statement_timestamp() AS open`).pipe(
          Effect.provide(
            PgClient.layer({ host: address.host, port: address.port, database: "postgres", username: "postgres" })
          )
        )
      // the insert was rolled back, and the session is in no transaction of A's
      expect(rows).toEqual([{ n: 0, open: false }])
    }).pipe(Effect.scoped))

  it.live("answers a client past the connection limit with PostgreSQL's too-many-clients error", () =>
    Effect.gen(function*() {
      const address = yield* embeddedPostgres(":memory:", { share: false })
      const answer = yield* Effect.promise(async () => {
        // as many as the socket takes (SOCKET_CONNECTIONS in EmbeddedPostgres.ts)
        const held = await Promise.all(Array.from({ length: 12 }, () => connect(address)))
        const extra = Net.connect(address.port, address.host)
        const received = await new Promise<Buffer>((resolve) => {
          let bytes = Buffer.alloc(0)
          extra.on("data", (chunk) => (bytes = Buffer.concat([bytes, chunk])))
          extra.on("close", () => resolve(bytes))
        })
        for (const connection of held) connection.socket.destroy()
        return received
      })
      expect(answer[0]).toBe("E".charCodeAt(0))
      expect(answer.toString()).toContain("53300")
      expect(answer.toString()).toContain("sorry, too many clients already")
    }).pipe(Effect.scoped))
})
