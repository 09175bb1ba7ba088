import { Effect } from "effect"

/**
 * The latest time of each id, kept in memory and written in batches by a process job (`flush`)
 * rather than on the request path: `touch` is a map write; `write` gets every pending entry in
 * one call, and entries it fails on are kept for the next flush. `latest` merges what is pending
 * here with what the database has, so this process answers with its own latest at once.
 */
export const latestTimes = <E, R>(
  write: (entries: ReadonlyArray<readonly [id: string, at: Date]>) => Effect.Effect<void, E, R>,
  what: string
) => {
  const pending = new Map<string, Date>()

  const remember = (id: string, at: Date) => {
    const previous = pending.get(id)
    if (previous === undefined || previous < at) pending.set(id, at)
  }

  const touch = (id: string) => remember(id, new Date())

  const flush = Effect.suspend(() => {
    if (pending.size === 0) return Effect.void
    const entries = [...pending]
    pending.clear()
    return write(entries).pipe(
      Effect.catchAllCause((cause) =>
        Effect.sync(() => entries.forEach(([id, at]) => remember(id, at))).pipe(
          Effect.zipRight(Effect.logWarning(`${what} flush failed; retrying on the next tick`, cause))
        )
      )
    )
  })

  const latest = (id: string, stored: Date | null): Date | null => {
    const inMemory = pending.get(id)
    if (inMemory === undefined) return stored
    return stored === null || stored < inMemory ? inMemory : stored
  }

  return { touch, flush, latest } as const
}
