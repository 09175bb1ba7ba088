import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { measureRequestLogQueue } from "../../platform/metrics/ServerMetrics.js"

export interface ProviderCallSummary {
  readonly method: string
  readonly url: string
  readonly status: number | null
  readonly durationMs: number
  /** Only when the project keeps bodies: redacted, capped (`loggedBody`). */
  readonly requestBody?: string | null
  readonly responseBody?: string | null
}

/** The call that asked for the run, as it reached this server. */
export interface IncomingCall {
  readonly method: string
  readonly path: string
  readonly url: string
}

export interface RequestLogEntry {
  readonly projectId: string
  readonly accountId: string
  /** The account's connector key. */
  readonly provider: string
  /** None when no HTTP request carried the run. */
  readonly incoming: IncomingCall | null
  /** `connect`: a connect page's credential check, logged under `connect-session:<id>` as its account. */
  readonly kind: "rpc" | "unified" | "mcp" | "connect"
  readonly action: string
  readonly status: number
  readonly durationMs: number
  readonly providerCalls: ReadonlyArray<ProviderCallSummary>
  /** The error message answered to the caller (already free of secrets). */
  readonly error: string | null
  readonly at: Date
}

const MAX_PENDING = 10_000
/** Body characters the buffer may hold (projects that keep bodies), about 64 MB. */
const MAX_PENDING_BODY_CHARS = 32 * 1024 * 1024
const INSERT_CHUNK = 1_000

const bodyChars = (entry: RequestLogEntry) =>
  entry.providerCalls.reduce((sum, call) => sum + (call.requestBody?.length ?? 0) + (call.responseBody?.length ?? 0), 0)

/**
 * The request log: every action run with its status, duration and provider calls (URLs
 * redacted; bodies only for projects that keep them). Entries are buffered in memory and written in batches by the
 * scheduler, so logging adds no database write to a request.
 */
export class RequestLog extends Effect.Service<RequestLog>()("Switchyard/RequestLog", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    let pending: Array<RequestLogEntry> = []
    let pendingBodyChars = 0
    // One flush at a time: when a flush returns, every entry recorded before it started is
    // written, also those a concurrent (scheduled) flush had already taken.
    const flushing = yield* Effect.makeSemaphore(1)
    measureRequestLogQueue(() => pending.length)

    // Under a database outage the oldest entries give way rather than memory growing.
    const keepWithinBounds = () => {
      while (pending.length > MAX_PENDING || (pendingBodyChars > MAX_PENDING_BODY_CHARS && pending.length > 1)) {
        pendingBodyChars -= bodyChars(pending.shift()!)
      }
    }

    const record = (entry: RequestLogEntry) =>
      Effect.sync(() => {
        pending.push(entry)
        pendingBodyChars += bodyChars(entry)
        keepWithinBounds()
      })

    const toRow = (entry: RequestLogEntry) => ({
      id: Crypto.randomUUID(),
      project_id: entry.projectId,
      account_id: entry.accountId,
      provider: entry.provider,
      http_method: entry.incoming?.method ?? null,
      path: entry.incoming?.path ?? null,
      url: entry.incoming?.url ?? null,
      kind: entry.kind,
      action: entry.action,
      status: entry.status,
      duration_ms: entry.durationMs,
      provider_calls: JSON.stringify(entry.providerCalls),
      error: entry.error,
      created_at: entry.at
    })

    // Statements of INSERT_CHUNK rows stay far below PostgreSQL's 65,535 parameters per
    // statement however many entries piled up; a chunk that fails goes back with the rest.
    const insertFrom = (batch: ReadonlyArray<RequestLogEntry>, start: number): Effect.Effect<void, SqlError.SqlError> => {
      if (start >= batch.length) return Effect.void
      const rows = batch.slice(start, start + INSERT_CHUNK).map(toRow)
      return sql`INSERT INTO request_logs ${sql.insert(rows)}`.pipe(
        Effect.tapError(() =>
          Effect.sync(() => {
            pending = [...batch.slice(start), ...pending]
            pendingBodyChars = pending.reduce((sum, entry) => sum + bodyChars(entry), 0)
            keepWithinBounds()
          })
        ),
        Effect.zipRight(Effect.suspend(() => insertFrom(batch, start + INSERT_CHUNK)))
      )
    }

    const flush = flushing.withPermits(1)(Effect.suspend(() => {
      if (pending.length === 0) return Effect.succeed(0)
      const batch = pending
      pending = []
      pendingBodyChars = 0
      return Effect.as(insertFrom(batch, 0), batch.length)
    }))

    const deleteOlderThan = (days: number, limit: number) =>
      sql`
        WITH old AS (SELECT id FROM request_logs WHERE created_at < now() - make_interval(days => ${days}) LIMIT ${limit})
        DELETE FROM request_logs r USING old WHERE r.id = old.id RETURNING 1 AS n`.pipe(
        Effect.map((rows) => rows.length),
        Effect.orDie
      )

    /**
     * Retention: batches of `limit` until one comes back short or `maxBatches` ran. Each batch
     * is its own short statement (no long lock on the table); what remains waits for the next run.
     */
    const purgeOlderThan = (days: number, limit: number, maxBatches: number) => {
      const fromBatch = (batch: number, deleted: number): Effect.Effect<number> =>
        Effect.flatMap(deleteOlderThan(days, limit), (count) =>
          count === limit && batch + 1 < maxBatches ? fromBatch(batch + 1, deleted + count) : Effect.succeed(deleted + count))
      return fromBatch(0, 0)
    }

    return { record, flush, deleteOlderThan, purgeOlderThan } as const
  })
}) {}
