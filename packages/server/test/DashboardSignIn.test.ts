import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Page } from "playwright-core"
import { BrowserLive, ConnectServerUrl, ConnectTestServer } from "./support/browser.js"
import {
  dashboardScreenshots,
  openDashboard,
  openSection,
  seriousAccessibilityViolations,
  signIn
} from "./support/dashboard.js"
import { accountBody, freshProject, keyFor } from "./support/Fixtures.js"

/*
 * Signing in to the dashboard as a person does (pasting a key), the API keys view, and how
 * a session ends: sign-out, and the revocation of its key seen by a session that is open.
 * Read Only sessions see no write controls and the server refuses their writes. Screenshots:
 * packages/server/test-artifacts/dashboard/.
 */

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const expectAccessible = (page: Page) =>
  Effect.gen(function*() {
    expect(yield* seriousAccessibilityViolations(page)).toEqual([])
  })

/** A write the page's own script could send, as a forged click would: the server's answer. */
const forcedWrite = (page: Page, path: string, method: string, body?: unknown) =>
  promise(() =>
    page.evaluate(async ({ path, method, body }) => {
      const response = await fetch(path, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: await response.json().catch(() => null) as { message?: string } | null }
    }, { path, method, body })
  )

const server = Layer.mergeAll(ConnectTestServer(), BrowserLive)

layer(server, { excludeTestServices: true })("signing in to the dashboard", (it) => {
  it.scoped("a wrong key is refused in words; the right one opens the dashboard, and no key is left in the page's storage", () =>
    Effect.gen(function*() {
      const baseUrl = yield* ConnectServerUrl
      const project = yield* freshProject
      const shot = dashboardScreenshots("sign-in")
      const { page, cspViolations } = yield* openDashboard(baseUrl)
      yield* promise(() => page.getByRole("heading", { name: "Sign in to Switchyard" }).waitFor())
      yield* shot(page, "sign-in")
      yield* expectAccessible(page)

      yield* promise(() => page.getByRole("button", { name: "Sign in" }).click())
      expect(yield* promise(() => page.getByRole("alert").textContent())).toContain("Paste an API key first.")
      yield* promise(() => page.getByLabel("API key", { exact: true }).fill("swy_not-a-key-of-this-server"))
      yield* promise(() => page.getByRole("button", { name: "Sign in" }).click())
      yield* promise(() => page.getByRole("alert").filter({ hasText: "Invalid API key" }).waitFor())
      yield* shot(page, "refused")

      yield* signIn(page, project.key)
      yield* shot(page, "signed-in")
      const cookies = yield* promise(() => page.context().cookies())
      const session = cookies.find((cookie) => cookie.name === "switchyard_session")!
      expect({ httpOnly: session.httpOnly, sameSite: session.sameSite }).toEqual({ httpOnly: true, sameSite: "Strict" })
      // the key went to the server once: neither the page's storage nor its script can see a credential
      const stored = yield* promise(() =>
        page.evaluate<string>("JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })")
      )
      expect(stored).not.toContain(project.key)
      expect(stored).not.toContain(session.value)
      expect(yield* promise(() => page.getByLabel("API key", { exact: true }).count())).toBe(0)

      // a reload keeps the session; signing out ends it on the server, not only in the page
      yield* promise(() => page.reload())
      yield* promise(() => page.getByRole("navigation", { name: "Sections" }).waitFor())
      yield* promise(() => page.getByRole("button", { name: "Sign out" }).click())
      yield* promise(() => page.getByRole("status").filter({ hasText: "You signed out." }).waitFor())
      const afterSignOut = yield* promise(() =>
        page.request.get(`${baseUrl}/v2/accounts`, { headers: { cookie: `switchyard_session=${session.value}` } })
      )
      expect(afterSignOut.status()).toBe(401)
      expect(cspViolations).toEqual([])
    }))

  it.scoped("the API keys view creates a key shown once and revokes keys; revoking a session's key ends that session", () =>
    Effect.gen(function*() {
      const baseUrl = yield* ConnectServerUrl
      const project = yield* freshProject
      const support = yield* keyFor(project.projectId, "read_only")
      const shot = dashboardScreenshots("api-keys")
      const admin = yield* openDashboard(baseUrl)
      yield* signIn(admin.page, project.key)
      yield* openSection(admin.page, "API keys")
      yield* shot(admin.page, "list")
      yield* expectAccessible(admin.page)

      // create: the key is shown once, and works
      yield* promise(() => admin.page.getByLabel("Name").fill("Nightly export"))
      yield* promise(() => admin.page.getByLabel("Scope").selectOption({ label: "Read Only" }))
      yield* promise(() => admin.page.getByRole("button", { name: "Create key" }).click())
      const shown = admin.page.getByLabel("The new key “Nightly export” (Read Only)")
      yield* promise(() => shown.waitFor())
      const created = yield* promise(() => shown.inputValue())
      expect(created).toMatch(/^swy_/)
      yield* shot(admin.page, "created-shown-once")
      yield* expectAccessible(admin.page)
      const row = admin.page.getByRole("row").filter({ hasText: "Nightly export" })
      expect(yield* promise(() => row.textContent())).toContain(created.slice(0, 10))
      yield* promise(() => admin.page.getByRole("button", { name: "Done" }).click())
      expect(yield* promise(() => admin.page.getByLabel("The new key “Nightly export” (Read Only)").count())).toBe(0)
      expect(yield* promise(() => admin.page.content())).not.toContain(created)

      // a support engineer is signed in with the Read Only key in another browser
      const supportSession = yield* openDashboard(baseUrl)
      yield* signIn(supportSession.page, support.key)
      expect(yield* promise(() => supportSession.page.getByRole("link", { name: "API keys" }).count())).toBe(0)

      // revoke it from the admin's view, after a confirmation
      const supportRow = admin.page.getByRole("row").filter({ hasText: "test read_only" })
      yield* promise(() => supportRow.getByRole("button", { name: "Revoke test read_only" }).click())
      yield* promise(() => admin.page.getByRole("dialog", { name: "Revoke “test read_only”?" }).waitFor())
      yield* shot(admin.page, "confirm-revoke")
      yield* expectAccessible(admin.page)
      yield* promise(() => admin.page.getByRole("button", { name: "Revoke key" }).click())
      yield* promise(() => supportRow.getByText(/^Revoked/).waitFor())
      yield* shot(admin.page, "revoked")

      // the support engineer's next request learns the session ended, and the page says so
      yield* promise(() => supportSession.page.reload())
      yield* promise(() => supportSession.page.getByRole("heading", { name: "Sign in to Switchyard" }).waitFor())
      const afterRevoke = yield* promise(() => supportSession.page.request.get(`${baseUrl}/dashboard/session`))
      expect(afterRevoke.status()).toBe(401)
      yield* shot(supportSession.page, "session-ended")
      expect([...admin.cspViolations, ...supportSession.cspViolations]).toEqual([])
    }))

  it.scoped("a Read Only session shows no write controls, and the server refuses its writes when forced", () =>
    Effect.gen(function*() {
      const baseUrl = yield* ConnectServerUrl
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: accountBody() })
      const readOnly = yield* keyFor(project.projectId, "read_only")
      const { page } = yield* openDashboard(baseUrl)
      yield* signIn(page, readOnly.key)
      expect(yield* promise(() => page.getByText("Read Only", { exact: true }).count())).toBe(1)

      const deleted = yield* forcedWrite(page, `/v2/accounts/${account.id}`, "DELETE")
      expect(deleted.status).toBe(403)
      expect(deleted.body?.message).toContain("Read Only")
      const minted = yield* forcedWrite(page, "/v2/api_keys", "POST", { name: "escalate" })
      expect(minted.status).toBe(403)
      // still there
      expect((yield* project.client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).id).toBe(account.id)
    }))

  it.scoped("narrow scopes see only what they may read: Accounts keys the accounts, Actions keys nothing, and the page says so", () =>
    Effect.gen(function*() {
      const baseUrl = yield* ConnectServerUrl
      const project = yield* freshProject
      const accounts = yield* keyFor(project.projectId, "accounts")
      const actions = yield* keyFor(project.projectId, "actions")
      const shot = dashboardScreenshots("narrow-scopes")

      const accountsSession = yield* openDashboard(baseUrl)
      yield* signIn(accountsSession.page, accounts.key)
      const links = accountsSession.page.getByRole("navigation", { name: "Sections" }).getByRole("link")
      expect(yield* promise(() => links.allTextContents())).toEqual(["Accounts"])
      yield* promise(() => accountsSession.page.getByRole("heading", { level: 1, name: "Accounts" }).waitFor())
      yield* shot(accountsSession.page, "accounts-scope")

      const actionsSession = yield* openDashboard(baseUrl)
      yield* promise(async () => {
        await actionsSession.page.getByLabel("API key", { exact: true }).fill(actions.key)
        await actionsSession.page.getByRole("button", { name: "Sign in" }).click()
      })
      yield* promise(() => actionsSession.page.getByRole("heading", { level: 1, name: "Nothing to show for this key" }).waitFor())
      expect(yield* promise(() => actionsSession.page.getByRole("main").textContent())).toContain("Full Access or Read Only")
      yield* shot(actionsSession.page, "actions-scope")
      yield* expectAccessible(actionsSession.page)
    }))

  it.scoped("works from the keyboard: sign-in with Enter, a skip link, every view's heading focused, Escape closes a confirmation", () =>
    Effect.gen(function*() {
      const baseUrl = yield* ConnectServerUrl
      const project = yield* freshProject
      const { page } = yield* openDashboard(baseUrl)
      const focused = () => page.evaluate<string>("(e => e.tagName.toLowerCase() + ':' + (e.getAttribute('aria-label') || e.textContent || '').trim())(document.activeElement)")
      const press = (key: string) => promise(() => page.keyboard.press(key))

      // the sign-in view opens with its heading focused; Tab reaches the key, Enter sends it
      yield* promise(() => page.getByRole("heading", { name: "Sign in to Switchyard" }).waitFor())
      expect(yield* promise(focused)).toBe("h1:Sign in to Switchyard")
      yield* press("Tab")
      expect(yield* promise(() => page.evaluate<string>("document.activeElement.id"))).toBe("api-key")
      yield* promise(() => page.keyboard.type(project.key))
      yield* press("Enter")
      yield* promise(() => page.getByRole("navigation", { name: "Sections" }).waitFor())
      expect(yield* promise(focused)).toBe("h1:Overview")

      // a page loaded (not signed into just now) keeps the focus at its top: the first Tab is the
      // skip link, which leads to the view's heading
      yield* promise(() => page.reload())
      yield* promise(() => page.getByRole("heading", { level: 1, name: "Overview" }).waitFor())
      yield* press("Tab")
      expect(yield* promise(focused)).toBe("a:Skip to content")
      yield* press("Enter")
      expect(yield* promise(focused)).toBe("h1:Overview")

      // each section's link opens its view with the focus on the view's heading
      const nav = page.getByRole("navigation", { name: "Sections" })
      for (const title of ["Accounts", "Request logs", "Connectors", "Connector profiles", "Webhooks", "API keys"]) {
        yield* promise(() => nav.getByRole("link", { name: title, exact: true }).focus())
        yield* press("Enter")
        yield* promise(() =>
          page.waitForFunction((name) => {
            // (a function, not a string: the page's CSP forbids evaluating strings)
            const active = (globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string } | null } })
              .document.activeElement
            return active?.tagName === "H1" && active.textContent === name
          }, title)
        )
      }

      // a confirmation: Escape cancels it, the focus goes back to the button that opened it, nothing is revoked
      const revoke = page.getByRole("button", { name: "Revoke test full_access" })
      yield* promise(() => revoke.focus())
      yield* press("Enter")
      const dialog = page.getByRole("dialog", { name: "Revoke “test full_access”?" })
      yield* promise(() => dialog.waitFor())
      yield* press("Escape")
      yield* promise(() => dialog.waitFor({ state: "hidden" }))
      expect(yield* promise(focused)).toBe("button:Revoke test full_access")
      expect(yield* promise(() => page.getByRole("row").filter({ hasText: "test full_access" }).textContent())).toContain("Active")
    }))
})
