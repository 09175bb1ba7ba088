import { FetchHttpClient, HttpClient, HttpServer } from "@effect/platform"
import { PreconditionFailed, TooManyRequests } from "@switchyard/api"
import type { Account } from "@switchyard/api"
import {
  createSwitchyardClient,
  paginate,
  paginatePages,
  recordsOf,
  SwitchyardClient,
  SwitchyardClientConfig
} from "@switchyard/client"
import { expect, layer } from "@effect/vitest"
import { Cause, Chunk, ConfigProvider, Effect, Inspectable, Layer, Logger, Stream } from "effect"
import * as Util from "node:util"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/* The client package as a user adopts it: configured through Config, sending with fetch over a real socket. */

const Server = Layer.merge(
  // One provider attempt, so a provider 429 reaches the client as the server's own 429.
  TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", SWITCHYARD_PROVIDER_MAX_ATTEMPTS: "1" }),
  SandboxLive(13)
)

const serverUrl = Effect.map(HttpServer.HttpServer, ({ address }) => {
  if (address._tag !== "TcpAddress") throw new Error("the test server should listen on TCP")
  return `http://127.0.0.1:${address.port}`
})

const clientConfig = (settings: Record<string, string>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings))))

/** `SwitchyardClient.Default` built from Config alone, as an application would. */
const clientLayer = (apiKey: string, settings: Record<string, string> = {}) =>
  Effect.map(serverUrl, (baseUrl) =>
    SwitchyardClient.Default.pipe(
      Layer.provide(clientConfig({ SWITCHYARD_BASE_URL: baseUrl, SWITCHYARD_API_KEY: apiKey, ...settings }))
    ))

/** A project with a Greenhouse account on the sandbox; faults and the sandbox's request log cleared. */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({
    payload: sandboxGreenhouseAccount(sandbox)
  })
  sandbox.faults.clear()
  sandbox.clearRequests()
  const providerCalls = () => sandbox.requests().filter((request) => request.path === "/v1/applications").length
  return { sandbox, project, ats, providerCalls }
})

const listApplications = (client: SwitchyardClient, accountId: string, pageSize = 100) =>
  paginate((cursor) =>
    client.unified_ats.ats_list_applications({
      headers: { "x-account-id": accountId },
      urlParams: { page_size: pageSize, ...cursor }
    })
  )

/** A fetch that counts the calls it sends, showing each answer to `onResponse`. */
const countingFetch = (onResponse: (response: Response) => void = () => {}) => {
  const counter = { calls: 0 }
  const fetch: typeof globalThis.fetch = (input, init) => {
    counter.calls++
    return globalThis.fetch(input, init).then((response) => {
      onResponse(response)
      return response
    })
  }
  return { counter, fetch }
}

layer(Server, { excludeTestServices: true })("@switchyard/client", (it) => {
  it.effect("paginate follows next over several pages and yields every application once", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const program = Effect.gen(function*() {
        const client = yield* SwitchyardClient
        const ids = Chunk.toReadonlyArray(yield* Stream.runCollect(listApplications(client, ats.id, 40))).map((a) => a.id)
        const pages = yield* Stream.runCount(
          paginatePages((cursor) =>
            client.unified_ats.ats_list_applications({
              headers: { "x-account-id": ats.id },
              urlParams: { page_size: 40, ...cursor }
            })
          )
        )
        return { ids, pages }
      })
      const { ids, pages } = yield* program.pipe(Effect.provide(yield* clientLayer(project.key)))
      expect(sandbox.counts.applications).toBeGreaterThan(80)
      expect(ids).toHaveLength(sandbox.counts.applications)
      expect(new Set(ids).size).toBe(sandbox.counts.applications)
      expect(pages).toBe(Math.ceil(sandbox.counts.applications / 40))
    }))

  it.effect("fails with typed errors per status: 412 for a suspended account, 404 for an unknown one", () =>
    Effect.gen(function*() {
      const { ats, project } = yield* setup
      yield* project.client.accounts.patch_account({ path: { id: ats.id }, urlParams: {}, payload: { status: "suspended" } })
      const program = Effect.gen(function*() {
        const client = yield* SwitchyardClient
        const suspended = yield* Stream.runCollect(listApplications(client, ats.id)).pipe(
          Effect.as("listed"),
          Effect.catchTag("PreconditionFailed", (error) => Effect.succeed(`412: ${error.message}`))
        )
        const unknown = yield* client.accounts.get_account({ path: { id: "acc_unknown" }, urlParams: {} }).pipe(
          Effect.as("found"),
          Effect.catchTag("NotFound", (error) => Effect.succeed(`${error.statusCode}`))
        )
        return { suspended, unknown }
      })
      const { suspended, unknown } = yield* program.pipe(Effect.provide(yield* clientLayer(project.key)))
      expect(suspended).toMatch(/^412: /)
      expect(unknown).toBe("404")
    }))

  it.effect("waits out a 429's Retry-After and retries, then succeeds", () =>
    Effect.gen(function*() {
      const { ats, project, providerCalls, sandbox } = yield* setup
      const [fault] = sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "rate_limit", retryAfter: 1, times: 1 })
      const page = yield* Effect.flatMap(SwitchyardClient, (client) =>
        client.unified_ats.ats_list_applications({ headers: { "x-account-id": ats.id }, urlParams: { page_size: 5 } })).pipe(
          Effect.provide(yield* clientLayer(project.key))
        )
      expect(page.data).toHaveLength(5)
      expect(fault!.fired).toBe(1)
      expect(providerCalls()).toBe(2)
    }))

  it.effect("gives up after the configured attempts with TooManyRequests, over an HttpClient of the caller's", () =>
    Effect.gen(function*() {
      const { ats, project, providerCalls, sandbox } = yield* setup
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "rate_limit", retryAfter: 1 })
      let sent = 0
      const CountingHttpClient = Layer.effect(
        HttpClient.HttpClient,
        Effect.map(HttpClient.HttpClient, (client) =>
          HttpClient.transform(client, (send) => Effect.zipRight(Effect.sync(() => sent++), send)))
      ).pipe(Layer.provide(FetchHttpClient.layer))
      const ClientLayer = SwitchyardClient.DefaultWithoutDependencies.pipe(
        Layer.provide(CountingHttpClient),
        Layer.provide(
          clientConfig({
            SWITCHYARD_BASE_URL: yield* serverUrl,
            SWITCHYARD_API_KEY: project.key,
            SWITCHYARD_RETRY_MAX_ATTEMPTS: "2"
          })
        )
      )
      const error = yield* Effect.flatMap(SwitchyardClient, (client) =>
        client.unified_ats.ats_list_applications({ headers: { "x-account-id": ats.id }, urlParams: {} })).pipe(
          Effect.flip,
          Effect.provide(ClientLayer)
        )
      sandbox.faults.clear()
      expect(error).toBeInstanceOf(TooManyRequests)
      expect(sent).toBe(2)
      expect(providerCalls()).toBe(2)
    }))

  it.effect("does not wait for a Retry-After longer than the configured maximum", () =>
    Effect.gen(function*() {
      const { ats, project, providerCalls, sandbox } = yield* setup
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "rate_limit", retryAfter: 60, times: 1 })
      const error = yield* Effect.flatMap(SwitchyardClient, (client) =>
        client.unified_ats.ats_list_applications({ headers: { "x-account-id": ats.id }, urlParams: {} })).pipe(
          Effect.flip,
          Effect.provide(yield* clientLayer(project.key))
        )
      sandbox.faults.clear()
      expect(error._tag).toBe("TooManyRequests")
      expect(providerCalls()).toBe(1)
    }))

  it.effect("the Promise client lists every record, retries a 429, and rejects with typed errors", () =>
    Effect.gen(function*() {
      const { ats, project, providerCalls, sandbox } = yield* setup
      const { counter, fetch } = countingFetch()
      const client = createSwitchyardClient({ baseUrl: yield* serverUrl, apiKey: project.key, fetch })
      const list = () =>
        client.paginate((cursor) =>
          client.unified_ats.ats_list_applications({
            headers: { "x-account-id": ats.id },
            urlParams: { page_size: 100, ...cursor }
          })
        )
      const ids = yield* Effect.promise(async () => {
        const seen: Array<string> = []
        for await (const application of list()) seen.push(application.id)
        return seen
      })
      expect(ids).toHaveLength(sandbox.counts.applications)
      expect(new Set(ids).size).toBe(sandbox.counts.applications)
      expect(counter.calls).toBe(Math.ceil(sandbox.counts.applications / 100))

      counter.calls = 0
      sandbox.clearRequests()
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "rate_limit", retryAfter: 1, times: 1 })
      const page = yield* Effect.promise(() =>
        client.unified_ats.ats_list_applications({ headers: { "x-account-id": ats.id }, urlParams: { page_size: 3 } })
      )
      expect(page.data).toHaveLength(3)
      expect(counter.calls).toBe(2)
      expect(providerCalls()).toBe(2)

      yield* project.client.accounts.patch_account({ path: { id: ats.id }, urlParams: {}, payload: { status: "suspended" } })
      const rejection = yield* Effect.promise(() =>
        client.unified_ats.ats_list_applications({ headers: { "x-account-id": ats.id }, urlParams: {} }).then(
          () => undefined,
          (error: unknown) => error
        )
      )
      expect(rejection).toBeInstanceOf(PreconditionFailed)
      expect((rejection as PreconditionFailed)._tag).toBe("PreconditionFailed")
      expect((rejection as PreconditionFailed).statusCode).toBe(412)
      const notFound = yield* Effect.promise(() =>
        client.accounts.get_account({ path: { id: "acc_unknown" }, urlParams: {} }).catch((error: unknown) => error)
      )
      expect(notFound).toMatchObject({ _tag: "NotFound", statusCode: 404 })
    }))

  it.effect("the Promise client, aborted during a retry wait, rejects with the signal's reason and sends no retry", () =>
    Effect.gen(function*() {
      const { ats, project, providerCalls, sandbox } = yield* setup
      let controller = new AbortController()
      let abortReason: unknown = undefined
      // Abort once the 429 is in: the client is then reading it or waiting out Retry-After, never retrying.
      const { counter, fetch } = countingFetch((response) => {
        if (response.status === 429) setTimeout(() => controller.abort(abortReason), 0)
      })
      const client = createSwitchyardClient({ baseUrl: yield* serverUrl, apiKey: project.key, fetch })
      const abortedList = (reason: unknown) => {
        controller = new AbortController()
        abortReason = reason
        counter.calls = 0
        sandbox.clearRequests()
        sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "rate_limit", retryAfter: 20, times: 1 })
        return Effect.promise(() =>
          client.unified_ats.ats_list_applications(
            { headers: { "x-account-id": ats.id }, urlParams: { page_size: 3 } },
            { signal: controller.signal }
          ).then(() => "listed", (error: unknown) => error)
        )
      }

      const byDefault = yield* abortedList(undefined)
      expect(byDefault).toBeInstanceOf(DOMException)
      expect((byDefault as DOMException).name).toBe("AbortError")
      expect(counter.calls).toBe(1)
      expect(providerCalls()).toBe(1)

      const reason = new Error("the user left the page")
      expect(yield* abortedList(reason)).toBe(reason)
      expect(counter.calls).toBe(1)
      expect(providerCalls()).toBe(1)
      sandbox.faults.clear()
    }))

  it.effect("recordsOf gives a list's records, typed, whether it answered a bare array or a page", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const second = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      const ids = [ats.id, second.id].sort()
      const client = createSwitchyardClient({ baseUrl: yield* serverUrl, apiKey: project.key })
      // Typed as Account records with no cast: a wrong element type here fails the typecheck.
      const bare: ReadonlyArray<Account> = recordsOf(yield* Effect.promise(() => client.accounts.list_accounts({ urlParams: {} })))
      const paged = yield* Effect.promise(() => client.accounts.list_accounts({ urlParams: { page: 2, page_size: 1 } }))
      expect(Array.isArray(paged)).toBe(false)
      const page: ReadonlyArray<Account> = recordsOf(paged)
      expect(bare.map((account) => account.id).sort()).toEqual(ids)
      expect(page.map((account) => account.id)).toHaveLength(1)
      expect(ids).toContain(page[0]!.id)
      // The same on the Effect client, and on another list of both shapes.
      const viaEffect = yield* Effect.flatMap(SwitchyardClient, (effectClient) =>
        Effect.all({
          accounts: Effect.map(effectClient.accounts.list_accounts({ urlParams: { page_size: 10 } }), recordsOf),
          connectors: Effect.map(effectClient.connectors.list_connectors({ urlParams: {} }), recordsOf)
        })).pipe(Effect.provide(yield* clientLayer(project.key)))
      expect(viaEffect.accounts.map((account) => account.id).sort()).toEqual(ids)
      expect(viaEffect.connectors.map((connector) => connector.id)).toContain("greenhouse@1.4.0~builtin")
    }))

  it.effect("never shows the API key: not in the config, errors, causes or logs", () =>
    Effect.gen(function*() {
      const { project, sandbox } = yield* setup
      const secrets = [project.key, Buffer.from(`${project.key}:`).toString("base64")]
      const expectHidden = (text: string) => {
        for (const secret of secrets) expect(text).not.toContain(secret)
      }
      const baseUrl = yield* serverUrl
      const config = yield* SwitchyardClientConfig.pipe(
        Effect.withConfigProvider(
          ConfigProvider.fromMap(new Map([["SWITCHYARD_BASE_URL", baseUrl], ["SWITCHYARD_API_KEY", project.key]]))
        )
      )
      expectHidden(String(config.apiKey))
      expectHidden(JSON.stringify(config))
      expectHidden(Inspectable.format(config))

      const logs: Array<string> = []
      const captureLogs = Logger.replace(
        Logger.defaultLogger,
        Logger.make((options) => {
          logs.push(Logger.logfmtLogger.log(options))
        })
      )
      // Transport and unexpected-status failures carry the request they sent, authorization header included.
      const failingAt = (baseUrl: string) =>
        Effect.flatMap(SwitchyardClient, (client) => client.accounts.list_accounts({ urlParams: {} })).pipe(
          Effect.provide(
            SwitchyardClient.Default.pipe(
              Layer.provide(clientConfig({ SWITCHYARD_BASE_URL: baseUrl, SWITCHYARD_API_KEY: project.key }))
            )
          ),
          Effect.tapErrorCause(Effect.logError),
          Effect.provide(captureLogs),
          Effect.exit
        )
      sandbox.faults.add({ match: { path: "/v2/accounts" }, fault: "status", status: 503 })
      for (const [baseUrl, tag] of [["http://127.0.0.1:1", "RequestError"], [sandbox.ats.url, "ResponseError"]]) {
        const exit = yield* failingAt(baseUrl!)
        expect(exit._tag).toBe("Failure")
        if (exit._tag === "Failure") {
          const error = Cause.squash(exit.cause)
          expect(error).toMatchObject({ _tag: tag })
          expectHidden(String(error))
          expectHidden(JSON.stringify(error))
          expectHidden(Inspectable.format(error))
          expectHidden(Util.inspect(error, { depth: null }))
          expectHidden(Cause.pretty(exit.cause))
        }
      }
      sandbox.faults.clear()
      expect(logs).toHaveLength(2)
      logs.forEach(expectHidden)

      const promiseClient = createSwitchyardClient({ baseUrl: "http://127.0.0.1:1", apiKey: project.key, retry: false })
      const rejection = yield* Effect.promise(() =>
        promiseClient.accounts.list_accounts({ urlParams: {} }).then(() => undefined, (error: unknown) => error)
      )
      expect(rejection).toMatchObject({ _tag: "RequestError" })
      expectHidden(String(rejection))
      expectHidden(JSON.stringify(rejection))
      expectHidden(Util.inspect(rejection, { depth: null }))
    }))
})
