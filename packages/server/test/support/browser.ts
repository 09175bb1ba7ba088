import { HttpApiBuilder, HttpServer, HttpServerError } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Context, Effect, Layer, Schedule } from "effect"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Path from "node:path"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { RequestLog } from "../../src/features/requestLogs/RequestLog.js"
import { AccountsRepo } from "../../src/features/accounts/AccountsRepo.js"
import { ApiKeys } from "../../src/features/auth/ApiKeys.js"
import { NodeServerLive } from "../../src/app/NodeServer.js"
import { ProjectsRepo } from "../../src/features/projects/ProjectsRepo.js"
import { OutboundHttp } from "../../src/platform/outboundHttp/OutboundHttp.js"
import { AppLive } from "../../src/app/Server.js"
import { freePort } from "./ServerProcess.js"
import { TestDatabase } from "./TestServer.js"

/*
 * Browser tests of the hosted connect page: Debian's Chromium driven by playwright-core (no
 * browser download), a test server whose SWITCHYARD_PUBLIC_URL is its real address (so
 * auth_link_url opens as is), small pages on other origins that embed or receive the page,
 * and screenshots of each step under packages/server/test-artifacts/connect/.
 */

const INSTALL_HINT = "Install Chromium to run the connect page's browser tests: on Debian or Ubuntu " +
  "`apt-get install chromium` (as root); elsewhere set CHROMIUM_PATH to a Chromium or Chrome executable."

/** The Chromium to drive: CHROMIUM_PATH, else `chromium` on the PATH; a clear failure when neither exists. */
export const chromiumPath = (): string => {
  const configured = process.env.CHROMIUM_PATH
  if (configured !== undefined && configured.length > 0) {
    if (!Fs.existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist. ${INSTALL_HINT}`)
    return configured
  }
  let found = ""
  try {
    found = execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim()
  } catch {
    found = ""
  }
  if (found.length === 0) throw new Error(`No chromium on the PATH. ${INSTALL_HINT}`)
  return found
}

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export class TestBrowser extends Context.Tag("Test/Browser")<TestBrowser, Browser>() {}

/** One headless Chromium for the layer's lifetime. */
export const BrowserLive = Layer.scoped(
  TestBrowser,
  Effect.acquireRelease(
    Effect.promise(() => chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS })),
    (browser) => Effect.promise(() => browser.close())
  )
)

/**
 * Long enough to mean "it hangs", never a wait for something to happen: locators and
 * navigations wait for the page state they name, this only ends a test that never gets there.
 */
const HANG_MS = 120_000

/** A fresh browser context (no cookies or storage shared with other tests) and its first page. */
export const newPage = Effect.gen(function*() {
  const browser = yield* TestBrowser
  const context = yield* Effect.acquireRelease(
    Effect.promise(() => browser.newContext({ viewport: { width: 900, height: 900 } })),
    (context) => Effect.promise(() => context.close())
  )
  const page = yield* Effect.promise(() => context.newPage())
  context.setDefaultTimeout(HANG_MS)
  context.setDefaultNavigationTimeout(HANG_MS)
  return { context, page } as { readonly context: BrowserContext; readonly page: Page }
})

export const SCREENSHOT_DIR = Path.resolve(import.meta.dirname, "../../test-artifacts/connect")

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60)

/** Numbered screenshots of one test's steps: `<test>-01-<step>.png`, `<test>-02-<step>.png`, … */
export const screenshots = (test: string) => {
  let step = 0
  Fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
  return (page: Page, label: string) => {
    step++
    const file = Path.join(SCREENSHOT_DIR, `${slug(test)}-${String(step).padStart(2, "0")}-${slug(label)}.png`)
    return Effect.promise(() => page.screenshot({ path: file, fullPage: true }))
  }
}

/** Where the connect test server answers (also its SWITCHYARD_PUBLIC_URL). */
export class ConnectServerUrl extends Context.Tag("Test/ConnectServerUrl")<ConnectServerUrl, string>() {}

/**
 * The real server on a port chosen up front, so that SWITCHYARD_PUBLIC_URL (and with it
 * auth_link_url) is the address the browser reaches. Provides what `TestServer` does: an
 * HttpClient aimed at it (the derived client needs no base URL), the repositories the
 * fixtures use, SQL and config. Outbound calls may reach loopback (the sandbox).
 */
export const ConnectTestServer = (overrides: Record<string, string> = {}) =>
  Layer.unwrapEffect(Effect.map(Effect.promise(freePort), (port) => connectTestServerOn(port, overrides))).pipe(
    // a port found free can be taken by a parallel test before the server binds it: take another
    Layer.retry(Schedule.recurs(2).pipe(Schedule.whileInput(portTaken)))
  )

const portTaken = (error: unknown) =>
  error instanceof HttpServerError.ServeError && (error.cause as { readonly code?: unknown } | undefined)?.code === "EADDRINUSE"

const connectTestServerOn = (port: number, overrides: Record<string, string>) => {
  const url = `http://127.0.0.1:${port}`
  const nodeServer = HttpServer.layerTestClient.pipe(
    Layer.provide(NodeHttpClient.layerWithoutAgent),
    Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
    Layer.provideMerge(NodeServerLive({ port, host: "127.0.0.1" }))
  )
  return HttpApiBuilder.serve().pipe(
    Layer.provide(AppLive),
    // RequestLog: the server's own buffer, which a test flushes to read the request log at once
    Layer.merge(Layer.mergeAll(ProjectsRepo.Default, ApiKeys.Default, AccountsRepo.Default, RequestLog.Default)),
    Layer.provideMerge(OutboundHttp.Default),
    Layer.provideMerge(nodeServer),
    Layer.provideMerge(TestDatabase({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", ...overrides, SWITCHYARD_PUBLIC_URL: url })),
    Layer.merge(Layer.succeed(ConnectServerUrl, url))
  )
}

/** A message a page received, as the recorder on the embedding and opener pages keeps it. */
export interface ReceivedMessage {
  readonly origin: string
  readonly data: { readonly type: string; readonly [key: string]: unknown }
}

const recorder = `window.received = [];
window.addEventListener("message", (event) => { window.received.push({ origin: event.origin, data: event.data }) });`

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

/**
 * A small site on another origin (its own port on loopback), standing for the application
 * that uses Switchyard:
 * - `/embed?src=<url>`: frames the page, records the messages it receives (`window.received`);
 * - `/opener?src=<url>`: a button that opens the page in a popup, and the same recorder;
 * - `/return`: where a session's redirect_url leads; shows its query.
 */
export const startApplicationSite = Effect.acquireRelease(
  Effect.async<{ readonly origin: string; readonly close: () => void }>((resume) => {
    const server = Http.createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://site")
      const src = url.searchParams.get("src") ?? ""
      const attribute = src.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
      const html = url.pathname === "/embed"
        ? page("Embedding application", `<h1>Embedding application</h1><iframe title="Connect an account" src="${attribute}" width="800" height="700"></iframe><script>${recorder}</script>`)
        : url.pathname === "/opener"
        ? page("Opening application", `<h1>Opening application</h1><button type="button" id="open">Connect an account</button><script>${recorder}
document.getElementById("open").addEventListener("click", () => { window.popup = window.open(${JSON.stringify(src)}, "connect", "popup=yes,width=600,height=800") });</script>`)
        : url.pathname === "/return"
        ? page("Back in the application", `<h1>Back in the application</h1><p id="query">${url.search.replace(/</g, "&lt;")}</p>`)
        : undefined
      response.writeHead(html === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      response.end(html ?? "not found")
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as Net.AddressInfo
      resume(Effect.succeed({ origin: `http://127.0.0.1:${port}`, close: () => server.close() }))
    })
  }),
  (site) => Effect.sync(() => site.close())
)

/** The messages the page received so far (see `startApplicationSite`). */
export const receivedMessages = (target: Page) =>
  Effect.promise(() => target.evaluate(() => (globalThis as unknown as { received: Array<ReceivedMessage> }).received))

/** Waits until the page received a message of `type`, and returns it. */
export const waitForMessage = (target: Page, type: string) =>
  Effect.promise(async () => {
    const handle = await target.waitForFunction(
      (wanted) => (globalThis as unknown as { received: Array<ReceivedMessage> }).received.find((m) => m.data?.type === wanted),
      type
    )
    return (await handle.jsonValue()) as ReceivedMessage
  })

/**
 * Answers a provider's consent page (the sandbox's OAuth2 provider has Allow and Deny
 * buttons); a promise, to combine with waiting for where the answer leads.
 */
export const answerConsent = (consent: Page, decision: "Allow" | "Deny") =>
  consent.getByRole("button", { name: decision }).click()

/**
 * Clicks a button that closes its own window and waits until the window is closed. The page can
 * close before Playwright hears that the click was delivered, so the click then fails with
 * "Target page, context or browser has been closed": that failure counts as done once the page
 * has closed (any other failure leaves the page open, and waiting for the close fails instead).
 */
export const clickClosing = (page: Page, click: () => Promise<unknown>) => {
  const closed = page.waitForEvent("close")
  return Promise.all([closed, click().catch((error: unknown) => closed.catch(() => Promise.reject(error)))])
}

/** Every request a page (and its frames and popups) sends, to check where it went. */
export const recordRequests = (context: BrowserContext) => {
  const urls: Array<string> = []
  context.on("request", (request) => urls.push(request.url()))
  return urls
}
