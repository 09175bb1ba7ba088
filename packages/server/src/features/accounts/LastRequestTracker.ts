import { Effect } from "effect"
import { latestTimes } from "../../platform/jobs/latestTimes.js"
import { AccountsRepo } from "./AccountsRepo.js"

/**
 * Remembers when each account was last active without a database write on the request
 * path: `touch` only updates memory; the scheduler's `flush_last_request` job writes the
 * latest times in one statement every few seconds, and once more when the server stops.
 */
export class LastRequestTracker extends Effect.Service<LastRequestTracker>()("Switchyard/LastRequestTracker", {
  effect: Effect.map(AccountsRepo, (repo) => {
    const times = latestTimes(repo.recordLastRequests, "last_request")
    return {
      touch: (accountId: string) => Effect.sync(() => times.touch(accountId)),
      flush: times.flush,
      /** The latest known activity: what is pending in memory or what the database has. */
      lastRequest: times.latest
    } as const
  }),
  dependencies: [AccountsRepo.Default]
}) {}
