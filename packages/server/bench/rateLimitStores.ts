/*
 * The cost of a provider rate-limit reservation in each store, from one process: 50 callers
 * reserve in a loop for a few seconds against a limit so generous that nothing waits or is
 * refused, once on 50 accounts and once all on one account (one bucket: PostgreSQL serializes
 * its row). Printed as reservations/s and p50/p99 of one reservation. Run by `pnpm bench`
 * after its table, or alone: `tsx bench/rateLimitStores.ts`. PostgreSQL rows need DATABASE_URL
 * (a fresh database is created and dropped), Redis rows REDIS_URL; each is skipped with the
 * reason otherwise.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import * as Crypto from "node:crypto"
import migration from "../src/migrations/0011_provider_rate_limits.js"
import { makePostgresRateLimits } from "../src/platform/outboundHttp/PostgresRateLimits.js"
import { ProviderSlots, rateOf } from "../src/platform/outboundHttp/ProviderSlots.js"
import { makeRedisRateLimits, redisTarget } from "../src/platform/outboundHttp/RedisRateLimits.js"
import type { SharedRateLimits } from "../src/platform/outboundHttp/SharedRateLimits.js"
import { createBenchDatabase, printableUrl } from "./postgres.js"

const SECONDS = Number(process.env["BENCH_RATE_LIMIT_SECONDS"] || 3)
const CALLERS = 50
const GENEROUS = rateOf(1e9)!

interface Figures {
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
}

/** Runs `reserve` from CALLERS loops for SECONDS; latencies in ms. */
const measure = async (reserve: (caller: number) => Promise<unknown>): Promise<Figures> => {
  const latencies: Array<number> = []
  const end = performance.now() + SECONDS * 1000
  await Promise.all(Array.from({ length: CALLERS }, async (_, caller) => {
    while (performance.now() < end) {
      const started = performance.now()
      await reserve(caller)
      latencies.push(performance.now() - started)
    }
  }))
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  return { perSecond: latencies.length / SECONDS, p50: at(0.5), p99: at(0.99) }
}

const row = (name: string, figures: Figures) =>
  `  ${name.padEnd(26)} ${Math.round(figures.perSecond).toLocaleString("en-US").padStart(12)} /s   p50 ${figures.p50.toFixed(3).padStart(8)} ms   p99 ${figures.p99.toFixed(3).padStart(8)} ms`

const sharedRows = async (name: string, store: SharedRateLimits) => {
  const prefix = Crypto.randomBytes(4).toString("hex")
  const reserve = (key: string) => Effect.runPromise(store.reserve(key, GENEROUS, 2_000))
  console.log(row(`${name}, 50 accounts`, await measure((caller) => reserve(`${prefix}:${caller}`))))
  console.log(row(`${name}, one account`, await measure(() => reserve(`${prefix}:one`))))
}

const main = async () => {
  console.log(`Rate-limit reservation cost (${CALLERS} concurrent callers in one process, ${SECONDS} s per row, nothing refused)`)
  const memory = Array.from({ length: CALLERS }, () => new ProviderSlots(1e9, 2_000, 1_000_000))
  const one = new ProviderSlots(1e9, 2_000, 1_000_000)
  // memory admission is synchronous: the await only yields, as a call's surrounding work would
  console.log(row("memory, 50 accounts", await measure(async (caller) => memory[caller]!.admit(Date.now()))))
  console.log(row("memory, one account", await measure(async () => one.admit(Date.now()))))

  const adminUrl = process.env["DATABASE_URL"] || undefined
  if (adminUrl === undefined) console.log("  postgres: skipped (set DATABASE_URL to a PostgreSQL server that may create a database)")
  else {
    const database = await createBenchDatabase(adminUrl)
    try {
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        yield* migration
        const store = yield* makePostgresRateLimits
        yield* Effect.promise(() => sharedRows("postgres", store))
      })).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(database.url), maxConnections: 10 }).pipe(Layer.orDie))))
    } catch (error) {
      console.log(`  postgres: failed on ${printableUrl(adminUrl)}: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      await database.drop()
    }
  }

  const redisUrl = process.env["REDIS_URL"] || undefined
  if (redisUrl === undefined) console.log("  redis: skipped (set REDIS_URL)")
  else {
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const store = yield* makeRedisRateLimits({ url: Redacted.make(redisUrl), keyPrefix: "switchyard-bench:", timeoutMs: 1_000 })
      yield* Effect.promise(() => sharedRows("redis", store))
    }))).catch((error: unknown) =>
      console.log(`  redis: failed at ${redisTarget(redisUrl)}: ${error instanceof Error ? error.message : String(error)}`)
    )
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(`rate-limit bench failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
