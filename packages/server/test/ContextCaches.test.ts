import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Either, Layer, Schedule } from "effect"
import { AccountContexts } from "../src/features/accounts/AccountContext.js"
import { ApiKeys } from "../src/features/auth/ApiKeys.js"
import { freshProject, keyFor } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/*
 * Account contexts and API keys come from memory on the hot path and are dropped when the
 * database says something changed, in this process at once and in any other process sharing
 * the database within a poll. "Another process" here is a second set of services built on
 * its own over the same database: its caches and its poller are its own, as in a second
 * server process.
 */

/** Bounds the waits below; they end as soon as what they wait for happens. */
const patiently = Schedule.intersect(Schedule.spaced("50 millis"), Schedule.recurs(1200))

/** `effect`'s first answer that satisfies `done`, asked again until it does. */
const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, done: (answer: A) => boolean) =>
  effect.pipe(Effect.filterOrFail(done, () => "not yet"), Effect.retry(patiently))

const otherProcess = Effect.map(
  Layer.build(Layer.mergeAll(AccountContexts.Default, ApiKeys.Default)),
  (context) => ({ contexts: Context.get(context, AccountContexts), apiKeys: Context.get(context, ApiKeys) })
)

/** Changes a row the way nothing in Switchyard may: without firing the triggers that announce changes. */
const unannounced = (statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SET LOCAL session_replication_role = replica`
      yield* statement(sql)
    }))
  }).pipe(Effect.orDie)

const setAccountStatus = (accountId: string, status: string) =>
  unannounced((sql) => sql`UPDATE accounts SET status = ${status} WHERE id = ${accountId}`)

layer(Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive()), {
  excludeTestServices: true
})("context caches", (it) => {
  it.scoped("another process serves an account from memory and drops it when the account changes", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      const other = yield* otherProcess
      const resolve = Effect.either(other.contexts.resolve(project.projectId, account.id))

      // Read once while the cache is trusted, then suspend the account behind every cache's
      // back: an answer from memory still says active (a read through would refuse it).
      yield* Effect.gen(function*() {
        yield* setAccountStatus(account.id, "active")
        expect(Either.isRight(yield* resolve)).toBe(true)
        yield* setAccountStatus(account.id, "suspended")
        const again = yield* resolve
        if (Either.isLeft(again)) return yield* Effect.fail("read through: the cache was not trusted yet")
      }).pipe(Effect.retry(patiently))

      // The same change made as Switchyard makes it, in the first process: the other one refuses.
      yield* project.client.accounts.patch_account({
        path: { id: account.id },
        payload: { status: "suspended", status_reasons: [{ code: "billing", description: "Invoice overdue" }] },
        urlParams: {}
      })
      const refused = yield* eventually(resolve, Either.isLeft)
      expect(Either.isLeft(refused) && refused.left._tag).toBe("AccountBlocked")
    }))

  it.scoped("another process drops a cached API key when it is revoked anywhere", () =>
    Effect.gen(function*() {
      const project = yield* freshProject
      const { id, key } = yield* keyFor(project.projectId, "read_only")
      const other = yield* otherProcess
      const authenticate = other.apiKeys.authenticate(key)

      yield* Effect.gen(function*() {
        yield* unannounced((sql) => sql`UPDATE api_keys SET revoked_at = NULL WHERE id = ${id}`)
        expect((yield* authenticate)._tag).toBe("Some")
        yield* unannounced((sql) => sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}`)
        if ((yield* authenticate)._tag === "None") return yield* Effect.fail("read through: the cache was not trusted yet")
      }).pipe(Effect.retry(patiently))

      // revoked as the CLI or another server would: this process's ApiKeys, not the other's
      yield* unannounced((sql) => sql`UPDATE api_keys SET revoked_at = NULL WHERE id = ${id}`)
      const apiKeys = yield* ApiKeys
      yield* apiKeys.revoke(id)
      const after = yield* eventually(authenticate, (found) => found._tag === "None")
      expect(after._tag).toBe("None")
    }))

  it.effect("in the process that made a change, the next call already sees it", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      const rpc = project.client.actions.rpc_action({
        headers: { "x-account-id": account.id },
        payload: { action: "ats_list_applications", query: { page_size: 1 } }
      })
      yield* rpc
      yield* rpc
      yield* project.client.accounts.patch_account({ path: { id: account.id }, payload: { status: "suspended" }, urlParams: {} })
      const refused = yield* Effect.flip(rpc)
      expect(refused._tag).toBe("PreconditionFailed")

      const { id, key } = yield* keyFor(project.projectId, "full_access")
      const apiKeys = yield* ApiKeys
      expect((yield* apiKeys.authenticate(key))._tag).toBe("Some")
      yield* apiKeys.revoke(id)
      expect((yield* apiKeys.authenticate(key))._tag).toBe("None")
    }))
})
