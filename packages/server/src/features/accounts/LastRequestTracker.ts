import { Effect } from "effect"
import { AccountsRepo } from "./AccountsRepo.js"

/**
 * Remembers when each account was last active without a database write on the request
 * path: `touch` only updates memory; the scheduler's `flush_last_request` job writes the
 * latest times in one statement every few seconds, and once more when the server stops.
 */
export class LastRequestTracker extends Effect.Service<LastRequestTracker>()("Switchyard/LastRequestTracker", {
  effect: Effect.gen(function*() {
    const repo = yield* AccountsRepo
    const pending = new Map<string, Date>()

    const remember = (accountId: string, at: Date) => {
      const previous = pending.get(accountId)
      if (previous === undefined || previous < at) pending.set(accountId, at)
    }

    const touch = (accountId: string) => Effect.sync(() => remember(accountId, new Date()))

    const flush = Effect.suspend(() => {
      if (pending.size === 0) return Effect.void
      const entries = [...pending]
      pending.clear()
      return repo.recordLastRequests(entries).pipe(
        Effect.catchAllCause((cause) =>
          Effect.sync(() => entries.forEach(([id, at]) => remember(id, at))).pipe(
            Effect.zipRight(Effect.logWarning("last_request flush failed; retrying on the next tick", cause))
          )
        )
      )
    })

    /** The latest known activity: what is pending in memory or what the database has. */
    const lastRequest = (accountId: string, stored: Date | null): Date | null => {
      const inMemory = pending.get(accountId)
      if (inMemory === undefined) return stored
      return stored === null || stored < inMemory ? inMemory : stored
    }

    return { touch, flush, lastRequest } as const
  }),
  dependencies: [AccountsRepo.Default]
}) {}
