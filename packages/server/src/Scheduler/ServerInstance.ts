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
    yield* Effect.acquireRelease(
      sql.withTransaction(Effect.gen(function*() {
        yield* embedded
          ? sql`DELETE FROM server_instances`
          : sql`DELETE FROM server_instances WHERE heartbeat_at < now() - interval '1 day'`
        yield* sql`INSERT INTO server_instances (id) VALUES (${id})`
      })).pipe(Effect.orDie),
      () => Effect.ignore(sql`DELETE FROM server_instances WHERE id = ${id}`)
    )

    /** Marks this process alive (registering it again if its row was removed meanwhile). */
    const heartbeat = sql`
      INSERT INTO server_instances (id) VALUES (${id})
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`.pipe(Effect.asVoid, Effect.orDie)

    return { id, heartbeat, silenceSeconds } as const
  })
}) {}
