import { SqlClient } from "@effect/sql"
import { Cause, Duration, Effect, Schedule } from "effect"

/** How often each process asks the database whether anything it caches has changed. */
export const EPOCH_POLL_INTERVAL = Duration.millis(200)

/**
 * How long after the start of the last answered poll cached entries are still trusted. A
 * change committed anywhere is seen by the first poll that starts after it, so no process
 * serves a cached entry more than this (plus one request) after the change: well inside the
 * promised second. A process whose polls stall (database down, event loop starved) stops
 * trusting its caches and reads through, rather than answering from old state.
 */
export const TRUSTED_FOR_MS = 800

/** A bounded map whose entries all vanish when the database says something changed. */
export interface EpochCache<K, V> {
  /** The cached value, or `lookup`'s (kept only if nothing changed while it ran). */
  readonly get: <E, R>(key: K, lookup: Effect.Effect<V, E, R>) => Effect.Effect<V, E, R>
}

/**
 * Caches of mutable things (API keys, account contexts) without serving them stale: every
 * process polls one counter (`cache_epochs`, bumped at commit by triggers on the tables
 * those things are read from) and drops all its cached entries when it moves. Writers in
 * this process call `changedHere`, so a change is visible here at once, not a poll later.
 */
export class CacheEpochs extends Effect.Service<CacheEpochs>()("Switchyard/CacheEpochs", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const caches = new Set<Map<unknown, unknown>>()
    let known: string | undefined
    let confirmedAt = Number.NEGATIVE_INFINITY
    // moves on every drop: a lookup that began before one must not store what it read
    let generation = 0

    const dropAll = () => {
      generation++
      for (const cache of caches) cache.clear()
    }

    const poll = Effect.gen(function*() {
      const startedAt = performance.now()
      const rows = yield* sql<{ readonly epoch: string }>`SELECT epoch::text AS epoch FROM cache_epochs WHERE name = 'contexts'`
      const epoch = rows[0]?.epoch
      if (epoch !== known) {
        known = epoch
        dropAll()
      }
      confirmedAt = startedAt
    })

    let failing = false
    yield* poll.pipe(
      Effect.tap(() => { failing = false }),
      // said once per outage, not every poll
      Effect.catchAllCause((cause) =>
        failing ? Effect.void : Effect.zipRight(
          Effect.sync(() => { failing = true }),
          Effect.logWarning("cache epoch poll failed; caches are bypassed until it answers", Cause.pretty(cause))
        )),
      Effect.repeat(Schedule.spaced(EPOCH_POLL_INTERVAL)),
      Effect.forkScoped
    )

    const trusted = () => performance.now() - confirmedAt < TRUSTED_FOR_MS

    /** A cache of at most `capacity` entries (the oldest give way). */
    const make = <K, V>(capacity: number): EpochCache<K, V> => {
      const entries = new Map<K, V>()
      caches.add(entries as Map<unknown, unknown>)
      const get = <E, R>(key: K, lookup: Effect.Effect<V, E, R>): Effect.Effect<V, E, R> =>
        Effect.suspend(() => {
          if (!trusted()) return lookup
          const cached = entries.get(key)
          if (cached !== undefined) return Effect.succeed(cached)
          const startedIn = generation
          return Effect.tap(lookup, (value) => {
            if (startedIn !== generation || !trusted()) return
            if (entries.size >= capacity) entries.delete(entries.keys().next().value!)
            entries.set(key, value)
          })
        })
      return { get }
    }

    /** Called by writers of what is cached, so this process never serves its own old state. */
    const changedHere = Effect.sync(dropAll)

    return { make, changedHere } as const
  })
}) {}
