import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { BrowserLive, ConnectServerUrl, ConnectTestServer, newPage, recordRequests } from "./support/browser.js"

/*
 * The API reference (GET /docs) in Chromium, as a newcomer opens it: the viewer renders the
 * document's introduction above the operations, with HTTP Basic chosen in its authentication
 * box, and asks no other origin for anything (the page works offline). Its screenshot:
 * packages/server/test-artifacts/docs/.
 */

const SCREENSHOT_DIR = Path.resolve(import.meta.dirname, "../test-artifacts/docs")

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

layer(Layer.merge(ConnectTestServer(), BrowserLive), { excludeTestServices: true })("the API reference in Chromium", (it) => {
  it.scoped("introduces Switchyard, says how to authenticate, names the README's guides, and loads nothing from elsewhere", () =>
    Effect.gen(function*() {
      const base = yield* ConnectServerUrl
      const { context, page } = yield* newPage
      const requests = recordRequests(context)
      const response = yield* promise(() => page.goto(`${base}/docs`))
      expect(response?.status()).toBe(200)
      const visible = (text: string) => promise(() => page.getByText(text, { exact: false }).first().waitFor())
      yield* visible("Switchyard is an open, self-hostable integration platform")
      yield* visible("HTTP Basic: the key is the username, the password is empty")
      yield* visible("switchyard keys create")
      for (const heading of ["Authentication", "Conventions", "Guides"]) {
        yield* promise(() => page.getByRole("heading", { name: heading, exact: true }).first().waitFor())
      }
      const guides = yield* promise(() => page.locator("li strong").allTextContents())
      expect(guides).toEqual(expect.arrayContaining(["Quick start", "Using the API", "Unified API", "Webhooks"]))
      // the authentication box offers the API's scheme with its description, not "No authentication selected"
      yield* visible("HTTP Basic with the API key as username and an empty password")
      Fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
      yield* promise(() => page.screenshot({ path: Path.join(SCREENSHOT_DIR, "introduction.png") }))
      expect(requests.length).toBeGreaterThan(0)
      expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
    }))
})
