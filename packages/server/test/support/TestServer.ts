import * as Reactivity from "@effect/experimental/Reactivity"
import { HttpApiBuilder, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import { inject } from "vitest"
import { AccountsRepo } from "../../src/features/accounts/AccountsRepo.js"
import { LastRequestTracker } from "../../src/features/accounts/LastRequestTracker.js"
import { RequestLog } from "../../src/features/requestLogs/RequestLog.js"
import { ApiKeys } from "../../src/features/auth/ApiKeys.js"
import { ephemeralServerConfig, SwitchyardConfig } from "../../src/platform/Config.js"
import { NodeServerLive } from "../../src/app/NodeServer.js"
import { ProjectsRepo } from "../../src/features/projects/ProjectsRepo.js"
import { OutboundHttp } from "../../src/platform/outboundHttp/OutboundHttp.js"
import { AppLive } from "../../src/app/Server.js"
import { MigrationsLive, sqlClientLayer } from "../../src/platform/database/Sql.js"
import { requestSpansWhen, TracingLive } from "../../src/platform/tracing/Tracing.js"

/** The Full Access key of the bootstrapped default project in every test server. */
export const BOOTSTRAP_KEY = "swy_test_bootstrap_key_0123456789abcdef"

/**
 * A database of its own for one test file: with `DATABASE_URL` (CI) a PostgreSQL database
 * created and dropped around the file, a copy of the run's migrated template
 * (migratedDatabase.ts) unless `migrated` is false; otherwise (undefined) an in-memory
 * embedded PGlite.
 */
const databaseUrl = (migrated: boolean) =>
  Effect.gen(function*() {
    const adminUrl = process.env.DATABASE_URL
    if (adminUrl === undefined || adminUrl.length === 0) return undefined
    const name = `switchyard_test_${Crypto.randomBytes(6).toString("hex")}`
    const template = migrated ? inject("migratedTemplate") : undefined
    const admin = yield* PgClient.make({ url: Redacted.make(adminUrl), maxConnections: 1 })
    yield* Effect.acquireRelease(
      admin.unsafe(`CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`),
      () => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.ignore)
    )
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return url.toString()
  }).pipe(Effect.provide(Reactivity.layer), Effect.orDie)

/** A migrated PostgreSQL database of its own with `DATABASE_URL`, else undefined (see `databaseUrl`). */
export const freshDatabaseUrl = databaseUrl(true)

/** An empty PostgreSQL database with `DATABASE_URL`, for processes that migrate it together. */
export const emptyDatabaseUrl = databaseUrl(false)

/** The run's migrated embedded data directory (migratedDatabase.ts), read once per file. */
let migratedSnapshot: ArrayBuffer | undefined
const readMigratedSnapshot = () => {
  const file = inject("migratedSnapshot")
  if (file === undefined) return undefined
  if (migratedSnapshot === undefined) {
    const bytes = Fs.readFileSync(file)
    migratedSnapshot = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  }
  return migratedSnapshot
}

export const testConfig = (databaseUrl: string | undefined, overrides: Record<string, string> = {}) =>
  ephemeralServerConfig(BOOTSTRAP_KEY, {
    LOG_LEVEL: "WARN",
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...overrides
  })

/** Services the tests reach behind the API, e.g. to create a second project and its keys. */
const ServicesLive = Layer.mergeAll(
  ProjectsRepo.Default,
  ApiKeys.Default,
  AccountsRepo.Default,
  LastRequestTracker.Default,
  RequestLog.Default
)

/**
 * Migrated SQL and config over a fresh database, without the HTTP layers: a copy of the run's
 * migrated database, on which the server's migrations (still run, as at every start) find
 * nothing to do.
 */
export const TestDatabase = (overrides: Record<string, string> = {}) =>
  Layer.unwrapScoped(
    Effect.map(freshDatabaseUrl, (databaseUrl) =>
      MigrationsLive.pipe(
        Layer.provideMerge(sqlClientLayer({ share: false, memorySnapshot: readMigratedSnapshot() })),
        Layer.provideMerge(SwitchyardConfig.Default),
        Layer.provideMerge(Layer.setConfigProvider(testConfig(databaseUrl, overrides)))
      ))
  )

/**
 * `NodeHttpServer.layerTest` over the real server's own Node server (its header limit and
 * client-error answers): a real socket on a free port, and an HttpClient that targets it.
 */
export const NodeServerTest = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
  Layer.provideMerge(NodeServerLive({ port: 0 }))
)

/**
 * The real server over `NodeServerTest` (a real socket): the HttpClient in
 * context targets it, so `HttpApiClient.make(Api)` needs no base URL.
 */
export const TestServer = (overrides: Record<string, string> = {}) =>
  // traced as `ServerLive` is: request spans and an exporter only when OTEL_* configure one
  Layer.unwrapEffect(Effect.map(SwitchyardConfig, ({ tracing }) => HttpApiBuilder.serve(requestSpansWhen(tracing)))).pipe(
    (serve) => HttpMiddleware.withTracerDisabledWhen(serve, () => true),
    Layer.provide(AppLive),
    Layer.merge(ServicesLive),
    Layer.provideMerge(OutboundHttp.Default),
    Layer.provideMerge(NodeServerTest),
    Layer.provide(TracingLive),
    Layer.provideMerge(TestDatabase(overrides))
  )
