import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import type { CreateConnectSession } from "@switchyard/api"
import { Effect, Layer } from "effect"
import type { Page } from "playwright-core"
import { ProjectsRepo } from "../src/features/projects/ProjectsRepo.js"
import {
  answerConsent,
  BrowserLive,
  clickClosing,
  ConnectServerUrl,
  ConnectTestServer,
  newPage,
  screenshots,
  startApplicationSite,
  waitForMessage
} from "./support/browser.js"
import { countAccounts, freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxLeverProfile } from "./support/SandboxLayer.js"

/*
 * OAuth2 through the hosted connect page in Chromium, against the sandbox's provider (a
 * Lever look-alike with a consent page): the whole window goes to the consent page and
 * back; a framed page opens a popup for it, which hands the result back and closes.
 */

const owner = { origin_owner_id: "customer-7", origin_owner_name: "Globex" }

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** A project whose Lever profile holds the sandbox's OAuth app and points at the sandbox. */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  yield* project.client.connector_profiles.create_connector_profile({
    urlParams: {},
    payload: sandboxLeverProfile(sandbox)
  })
  const mint = (extra: Partial<CreateConnectSession> = {}) =>
    project.client.connect_sessions.create_connect_session({ payload: { ...owner, ...extra } })
  const allowFraming = (origins: ReadonlyArray<string>) =>
    Effect.flatMap(ProjectsRepo, (projects) => projects.setConnectFrameOrigins(project.projectId, origins))
  return { sandbox, ...project, mint, allowFraming }
})

const sessionAccount = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; account_id: string | null }>`SELECT status, account_id FROM connect_sessions WHERE id = ${id}`)
    .pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

const authorizeButton = (page: Page) => page.getByRole("button", { name: "Authorize with Lever" })

const server = Layer.mergeAll(ConnectTestServer(), SandboxLive(7), BrowserLive)

layer(server, { excludeTestServices: true })("OAuth2 on the hosted connect page in Chromium", (it) => {
  it.scoped("top-level: Authorize goes to the consent page, Allow comes back connected and lands on redirect_url", () =>
    Effect.gen(function*() {
      const shot = screenshots("oauth2 top-level")
      const site = yield* startApplicationSite
      const { client, mint, sandbox } = yield* setup
      const session = yield* mint({ redirect_url: `${site.origin}/return` })
      const { page } = yield* newPage
      yield* promise(() => page.goto(session.auth_link_url))
      yield* promise(() => authorizeButton(page).waitFor())
      // the method's fields come first
      expect(yield* promise(() => page.getByLabel("Acting user id (optional)").getAttribute("type"))).toBe("text")
      yield* shot(page, "form")
      yield* promise(() => Promise.all([page.waitForURL(`${sandbox.oauth.url}/**`), authorizeButton(page).click()]))
      yield* promise(() => page.getByRole("button", { name: "Allow" }).waitFor())
      yield* shot(page, "consent")
      yield* promise(() => Promise.all([page.waitForURL(`${site.origin}/return?**`), answerConsent(page, "Allow")]))
      yield* shot(page, "returned")
      const accountId = new URL(page.url()).searchParams.get("account_id")!
      expect(yield* sessionAccount(session.id)).toEqual({ status: "completed", account_id: accountId })
      const applications = yield* client.unified_ats.ats_list_applications({
        headers: { "x-account-id": accountId },
        urlParams: { page_size: 2 }
      })
      expect(applications.data.length).toBeGreaterThan(0)
    }))

  it.scoped("top-level: Deny shows why on the result page, and Try again leads back to the form", () =>
    Effect.gen(function*() {
      const shot = screenshots("oauth2 denied")
      const base = yield* ConnectServerUrl
      const { mint, projectId, sandbox } = yield* setup
      const session = yield* mint()
      const { page } = yield* newPage
      yield* promise(() => page.goto(session.auth_link_url))
      yield* promise(() => Promise.all([page.waitForURL(`${sandbox.oauth.url}/**`), authorizeButton(page).click()]))
      yield* promise(() => Promise.all([page.waitForURL(`${base}/connect/oauth2/lever/callback?**`), answerConsent(page, "Deny")]))
      yield* promise(() => page.getByRole("heading", { name: "The account was not connected" }).waitFor())
      expect(yield* promise(() => page.getByRole("alert").textContent())).toMatch(/denied|access_denied/i)
      yield* shot(page, "denied")
      expect(yield* countAccounts(projectId)).toBe(0)
      yield* promise(() => Promise.all([page.waitForURL(session.auth_link_url), page.getByRole("link", { name: "Try again" }).click()]))
      yield* promise(() => authorizeButton(page).waitFor())
      yield* shot(page, "back at the form")
    }))

  it.scoped("framed: Authorize opens a popup for the consent page; it hands the result back and closes", () =>
    Effect.gen(function*() {
      const shot = screenshots("oauth2 framed")
      const base = yield* ConnectServerUrl
      const site = yield* startApplicationSite
      const { allowFraming, mint } = yield* setup
      yield* allowFraming([site.origin])
      const session = yield* mint()
      const { context, page } = yield* newPage
      yield* promise(() => page.goto(`${site.origin}/embed?src=${encodeURIComponent(session.auth_link_url)}`))
      const frame = page.frameLocator("iframe")
      const authorize = frame.getByRole("button", { name: "Authorize with Lever" })
      yield* promise(() => authorize.waitFor())
      const [popup] = yield* promise(() => Promise.all([context.waitForEvent("page"), authorize.click()]))
      yield* promise(() => popup.getByRole("button", { name: "Allow" }).waitFor())
      yield* shot(popup, "consent in the popup")
      yield* promise(() => frame.getByRole("button", { name: "Waiting for Lever…" }).waitFor())
      yield* shot(page, "waiting")
      yield* promise(() => clickClosing(popup, () => answerConsent(popup, "Allow")))
      const message = yield* waitForMessage(page, "switchyard:connected")
      expect(message.origin).toBe(base)
      expect(message.data.connector_key).toBe("lever")
      yield* promise(() => frame.getByRole("heading", { name: "Connected" }).waitFor())
      yield* shot(page, "connected in the frame")
      expect(yield* sessionAccount(session.id)).toEqual({ status: "completed", account_id: message.data.account_id })
    }))

  it.scoped("framed: closing the popup without answering makes the form usable again", () =>
    Effect.gen(function*() {
      const shot = screenshots("oauth2 popup closed")
      const site = yield* startApplicationSite
      const { allowFraming, mint, projectId } = yield* setup
      yield* allowFraming([site.origin])
      const session = yield* mint()
      const { context, page } = yield* newPage
      yield* promise(() => page.goto(`${site.origin}/embed?src=${encodeURIComponent(session.auth_link_url)}`))
      const frame = page.frameLocator("iframe")
      const authorize = frame.getByRole("button", { name: "Authorize with Lever" })
      const [popup] = yield* promise(() => Promise.all([context.waitForEvent("page"), authorize.click()]))
      yield* promise(() => popup.getByRole("button", { name: "Allow" }).waitFor())
      yield* promise(() => popup.close())
      yield* promise(() => frame.getByRole("alert").getByText("The Lever window was closed before the account was connected.").waitFor())
      expect(yield* promise(() => authorize.isEnabled())).toBe(true)
      yield* shot(page, "usable again")
      expect(yield* countAccounts(projectId)).toBe(0)
      expect(yield* sessionAccount(session.id)).toEqual({ status: "pending", account_id: null })
    }))
})
