import type { PGlite } from "@electric-sql/pglite"
import * as Net from "node:net"

/*
 * PostgreSQL's wire protocol on a loopback socket, in front of PGlite: what
 * `@effect/sql-pg` (node-postgres) and the CLI connect to.
 *
 * PGlite is one backend, one session, while a client pool opens several connections. Each
 * connection's messages go to the session a unit at a time: from its first message until
 * the session is idle again (ReadyForQuery with status I, after a Sync or a simple query
 * outside a transaction). Other connections wait their turn meanwhile. A unit is what
 * PostgreSQL itself would never see interleaved: an extended-query sequence (its unnamed
 * statement and portal live in the session until Sync) or a transaction.
 *
 * (@electric-sql/pglite-socket queues single messages and keeps a connection's turn only
 * inside a transaction: under concurrency another connection's Parse landed between a
 * Parse and its Bind, and the first query failed with "unnamed prepared statement does
 * not exist", or bound the other's statement.)
 */

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102

const READY_FOR_QUERY = 0x5a // 'Z'
const TERMINATE = 0x58 // 'X'
const IDLE = 0x49 // 'I'

const SYNC = Buffer.from([0x53, 0, 0, 0, 4])
const query = (text: string) => {
  const body = Buffer.from(`${text}\0`)
  const header = Buffer.alloc(5)
  header[0] = 0x51 // 'Q'
  header.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([header, body])
}

/** An ErrorResponse a client shows as PostgreSQL's own. */
const errorResponse = (severity: string, code: string, message: string) => {
  const fields = Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${message}\0\0`)
  const header = Buffer.alloc(5)
  header[0] = 0x45 // 'E'
  header.writeInt32BE(fields.length + 4, 1)
  return Buffer.concat([header, fields])
}

/** Follows the backend's messages: is the last one ReadyForQuery, and with which status? */
class BackendMessages {
  private readonly header = Buffer.alloc(5)
  private filled = 0
  private remaining = 0
  private status = 0
  /** The transaction status ('I', 'T' or 'E') when the last whole message is ReadyForQuery. */
  ready: number | undefined = IDLE

  feed(chunk: Uint8Array) {
    let at = 0
    while (at < chunk.length) {
      if (this.filled < 5) {
        this.header[this.filled++] = chunk[at++]!
        if (this.filled === 5) {
          this.ready = undefined
          this.remaining = this.header.readInt32BE(1) - 4
          if (this.remaining === 0) this.filled = 0
        }
        continue
      }
      const take = Math.min(this.remaining, chunk.length - at)
      if (this.header[0] === READY_FOR_QUERY) this.status = chunk[at + take - 1]!
      at += take
      this.remaining -= take
      if (this.remaining === 0) {
        this.ready = this.header[0] === READY_FOR_QUERY ? this.status : undefined
        this.filled = 0
      }
    }
  }
}

type ClientInput =
  | { readonly _tag: "Startup"; readonly bytes: Buffer }
  | { readonly _tag: "EncryptionRequest" }
  | { readonly _tag: "CancelRequest" }
  | { readonly _tag: "Messages"; readonly bytes: Buffer; readonly terminate: boolean }

/** Cuts a client's bytes into whole messages; the first is a startup packet (no type byte). */
class ClientMessages {
  private buffer: Buffer = Buffer.alloc(0)
  private started = false

  push(chunk: Buffer) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
  }

  /** What is whole so far: the startup packet alone, or every whole message (up to a Terminate). */
  next(): ClientInput | undefined {
    if (!this.started) {
      if (this.buffer.length < 8) return undefined
      const length = this.buffer.readInt32BE(0)
      if (this.buffer.length < length) return undefined
      const code = this.buffer.readInt32BE(4)
      const bytes = this.buffer.subarray(0, length)
      this.buffer = this.buffer.subarray(length)
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { _tag: "EncryptionRequest" }
      if (code === CANCEL_REQUEST) return { _tag: "CancelRequest" }
      this.started = true
      return { _tag: "Startup", bytes }
    }
    let end = 0
    while (end + 5 <= this.buffer.length) {
      if (this.buffer[end] === TERMINATE) {
        const bytes = this.buffer.subarray(0, end)
        this.buffer = Buffer.alloc(0)
        return { _tag: "Messages", bytes, terminate: true }
      }
      const length = 1 + this.buffer.readInt32BE(end + 1)
      if (end + length > this.buffer.length) break
      end += length
    }
    if (end === 0) return undefined
    const bytes = this.buffer.subarray(0, end)
    this.buffer = this.buffer.subarray(end)
    return { _tag: "Messages", bytes, terminate: false }
  }
}

/** The session's turn: one connection at a time, the others in arrival order. */
class Turns {
  private holder: object | undefined
  private readonly waiting: Array<{ readonly who: object; readonly resume: () => void }> = []

  take(who: object): Promise<void> | undefined {
    if (this.holder === who) return undefined
    if (this.holder === undefined) {
      this.holder = who
      return undefined
    }
    return new Promise((resume) => this.waiting.push({ who, resume }))
  }

  holds(who: object) {
    return this.holder === who
  }

  give(who: object) {
    if (this.holder !== who) return
    const next = this.waiting.shift()
    this.holder = next?.who
    next?.resume()
  }
}

export interface WireServer {
  readonly host: string
  readonly port: number
  /** Stops listening, ends every connection (rolling back what it left open) and waits for them. */
  readonly stop: () => Promise<void>
}

/** Serves `db` on `host` (an ephemeral port) to at most `maxConnections` clients at once. */
export const serveWire = async (
  db: PGlite,
  options: { readonly host: string; readonly maxConnections: number }
): Promise<WireServer> => {
  const turns = new Turns()
  const connections = new Map<Net.Socket, Promise<void>>()

  /** Runs `bytes` in the session; the backend's answer goes to `answer`. */
  const run = (bytes: Uint8Array, answer: (chunk: Uint8Array) => void) =>
    db.runExclusive(() => db.execProtocolRawStream(bytes, { onRawData: answer }))

  const serveConnection = (socket: Net.Socket) =>
    new Promise<void>((done) => {
      const turn = {}
      const input = new ClientMessages()
      const backend = new BackendMessages()
      let closed = false
      let draining = false

      const answer = (chunk: Uint8Array) => {
        backend.feed(chunk)
        if (!closed && socket.writable) socket.write(Buffer.from(chunk))
      }

      /** Leaves the session as a new connection finds it: no sequence half sent, no transaction open. */
      const leave = async () => {
        if (turns.holds(turn) && backend.ready !== IDLE) {
          const discard = (chunk: Uint8Array) => backend.feed(chunk)
          try {
            if (backend.ready === undefined) await run(SYNC, discard)
            if (backend.ready !== IDLE) await run(query("ROLLBACK"), discard)
          } catch {
            // the session is PGlite's to recover; the turn is given up regardless
          }
        }
        turns.give(turn)
        done()
      }

      const drain = async () => {
        if (draining) return
        draining = true
        try {
          for (let next = input.next(); next !== undefined && !closed; next = input.next()) {
            switch (next._tag) {
              case "EncryptionRequest":
                socket.write("N")
                continue
              case "CancelRequest":
                socket.end()
                continue
              case "Startup":
              case "Messages": {
                if (next.bytes.length > 0) {
                  await turns.take(turn)
                  await run(next.bytes, answer)
                  if (backend.ready === IDLE) turns.give(turn)
                }
                if (next._tag === "Messages" && next.terminate) socket.end()
              }
            }
          }
        } catch {
          socket.destroy()
        } finally {
          draining = false
        }
        if (closed) await leave()
      }

      socket.setNoDelay(true)
      socket.on("data", (chunk: Buffer) => {
        input.push(chunk)
        void drain()
      })
      socket.on("error", () => socket.destroy())
      socket.on("close", () => {
        closed = true
        void drain()
      })
    })

  const server = Net.createServer((socket) => {
    if (connections.size >= options.maxConnections) {
      socket.end(errorResponse("FATAL", "53300", "sorry, too many clients already"))
      return
    }
    connections.set(socket, serveConnection(socket).finally(() => connections.delete(socket)))
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, options.host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as Net.AddressInfo

  return {
    host: options.host,
    port: address.port,
    stop: async () => {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of connections.keys()) socket.destroy()
      await Promise.all([closing, ...connections.values()])
    }
  }
}
