import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { SwitchyardConfig } from "../Config.js"

/** Heartbeats a process may miss before its claims count as abandoned. */
const MISSED_HEARTBEATS = 3

/**
 * This server process as the database knows it: registered at start, its heartbeat
 * refreshed by the scheduler, removed on a graceful stop. Work the process claims (an
 * Idempotency-Key's run) names it, so another process can tell a claim still running
 * from one whose process was killed.
 */
export class ServerInstance extends Effect.Service<ServerInstance>()("Switchyard/ServerInstance", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* SwitchyardConfig
    const id = Crypto.randomUUID()
    /** Seconds without a heartbeat after which a process counts as gone. */
    const silenceSeconds = config.instanceHeartbeatSeconds * MISSED_HEARTBEATS

    // The embedded database serves one process (its data directory is locked): any other
    // registered process was stopped without deregistering. On PostgreSQL others may be alive.
    const embedded = Option.isNone(config.databaseUrl)
    // Taken before the registration's transaction begins: its row's heartbeat_at (`now()`, the
    // transaction's start) is no earlier. The registration may take long to finish (a process
    // starved of CPU at start, a busy pool): counted from its end, the process would think
    // itself fresh while others already see its row silent and take its claims over.
    const registeringAt = Date.now()
    yield* Effect.acquireRelease(
      sql.withTransaction(Effect.gen(function*() {
        yield* embedded
          ? sql`DELETE FROM server_instances`
          : sql`DELETE FROM server_instances WHERE heartbeat_at < now() - interval '1 day'`
        yield* sql`INSERT INTO server_instances (id) VALUES (${id})`
      })).pipe(Effect.orDie),
      () => Effect.ignore(sql`DELETE FROM server_instances WHERE id = ${id}`)
    )

    // What this process knows of its own standing: when its last heartbeat (or its registration)
    // was sent, never later than the database's time of it, and how many times a heartbeat found
    // it had been silent long enough to count as gone (its claims could then have been taken
    // over by another process).
    let lastBeatAt = registeringAt
    let lapses = 0

    /** Marks this process alive (registering it again if its row was removed meanwhile). */
    const heartbeat = Effect.suspend(() => {
      const sentAt = Date.now()
      return sql<{ readonly kept: boolean }>`
        WITH previous AS (SELECT heartbeat_at FROM server_instances WHERE id = ${id})
        INSERT INTO server_instances (id) VALUES (${id})
        ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
        RETURNING coalesce((SELECT heartbeat_at FROM previous) > now() - make_interval(secs => ${silenceSeconds}), false) AS kept`
        .pipe(
          Effect.tap((rows) =>
            Effect.sync(() => {
              if (rows[0]?.kept !== true) lapses++
              lastBeatAt = Math.max(lastBeatAt, sentAt)
            })
          ),
          Effect.asVoid,
          Effect.orDie
        )
    })

    /** A mark of this process's lapses so far, to ask later (`mayHaveLapsedSince`) whether it may have lapsed since. */
    const lapseMark = () => lapses

    /**
     * Whether another process may have counted this one as gone since `since` (a `lapseMark()`):
     * a heartbeat found it silent too long, or none was sent for two heartbeats (a stalled
     * process, or a database that does not answer), so the third missed one may be near.
     */
    const mayHaveLapsedSince = (since: number) =>
      lapses !== since || Date.now() - lastBeatAt > (silenceSeconds - config.instanceHeartbeatSeconds) * 1000

    return { id, heartbeat, silenceSeconds, lapseMark, mayHaveLapsedSince } as const
  })
}) {}
