import { Effect } from "effect"
import { latestTimes } from "../../platform/jobs/latestTimes.js"
import { ApiKeysRepo } from "./ApiKeysRepo.js"

/**
 * Remembers when each API key last authenticated a request without a database write on the
 * request path: `touch` (plain: it runs inside authentication, on every request) only updates
 * memory; the scheduler's `flush_api_key_usage` job writes the latest times in one statement
 * every few seconds, and once more when the server stops.
 */
export class ApiKeyUsage extends Effect.Service<ApiKeyUsage>()("Switchyard/ApiKeyUsage", {
  effect: Effect.map(ApiKeysRepo, (repo) => {
    const times = latestTimes(repo.recordLastUsed, "API key usage")
    return { touch: times.touch, flush: times.flush, lastUsed: times.latest } as const
  }),
  dependencies: [ApiKeysRepo.Default]
}) {}
