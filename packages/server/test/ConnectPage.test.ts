import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import type { CreateConnectSession } from "@switchyard/api"
import { Effect, Layer } from "effect"
import type { Frame, Page } from "playwright-core"
import { hashConnectToken } from "../src/features/connectSessions/ConnectSessions.js"
import { ProjectsRepo } from "../src/features/projects/ProjectsRepo.js"
import {
  BrowserLive,
  clickClosing,
  ConnectServerUrl,
  ConnectTestServer,
  newPage,
  receivedMessages,
  recordRequests,
  screenshots,
  startApplicationSite,
  waitForMessage
} from "./support/browser.js"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { countAccounts, freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { freePort } from "./support/ServerProcess.js"

/*
 * The hosted connect page in Chromium, as an end user meets it: opened from auth_link_url,
 * top-level, in a popup and framed by the application; against the sandbox's providers.
 * Screenshots of each step: packages/server/test-artifacts/connect/.
 */

const owner = { origin_owner_id: "customer-1", origin_owner_name: "Acme Inc" }

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/**
 * A project whose Greenhouse and BambooHR profiles (labelled as the README's example is) send
 * accounts to the sandbox, and a way to mint its sessions through the derived client.
 */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  yield* project.client.connector_profiles.create_connector_profile({
    urlParams: {},
    payload: { connector_key: "greenhouse", label: "Recruiting", account_settings: { base_url: sandbox.ats.baseUrl } }
  })
  yield* project.client.connector_profiles.create_connector_profile({
    urlParams: {},
    payload: { connector_key: "bamboohr", label: "People", account_settings: { base_url: sandbox.hris.baseUrl } }
  })
  const mint = (extra: Partial<CreateConnectSession> = {}) =>
    project.client.connect_sessions.create_connect_session({ payload: { ...owner, ...extra } })
  const allowFraming = (origins: ReadonlyArray<string>) =>
    Effect.flatMap(ProjectsRepo, (projects) => projects.setConnectFrameOrigins(project.projectId, origins))
  return { sandbox, ...project, mint, allowFraming }
})

/** Opens a link and waits for the page's first screen (its script has run once a heading has focus). */
const open = (page: Page, url: string) =>
  promise(async () => {
    const response = await page.goto(url)
    await page.locator("h1:focus").waitFor()
    return response!
  })

const heading = (page: Page | Frame) => page.locator("h1")

/** Holds the page's requests to `url` until released; then they, and later ones, go on to the server unchanged. */
const holdRequests = (page: Page, url: string) =>
  Effect.gen(function*() {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    yield* promise(() => page.route(url, async (route) => {
      await released
      await route.continue()
    }))
    return { release: Effect.sync(() => release()) }
  })

const text = (locator: { textContent(): Promise<string | null> }) => promise(async () => (await locator.textContent())?.trim())

const expire = (token: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE connect_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashConnectToken(token)}`)
    .pipe(Effect.orDie)

const server = Layer.mergeAll(ConnectTestServer(), SandboxLive(7), BrowserLive)

layer(server, { excludeTestServices: true })("the hosted connect page in Chromium", (it) => {
  it.scoped("shows a picker of the session's connectors with their names, profile labels and icons, all from this server", () =>
    Effect.gen(function*() {
      const shot = screenshots("picker")
      const base = yield* ConnectServerUrl
      const { mint } = yield* setup
      const session = yield* mint()
      expect(session.auth_link_url).toBe(`${base}/connect?token=${session.token}`)
      const { context, page } = yield* newPage
      const requests = recordRequests(context)
      const response = yield* open(page, session.auth_link_url)
      expect(response.status()).toBe(200)
      expect(yield* text(heading(page))).toBe("Connect an account")
      const choices = page.locator("ul.choices button")
      expect(yield* promise(() => choices.allTextContents())).toEqual(["GreenhouseRecruitingATS", "BambooHRPeopleHRIS"])
      // the provider's name is the primary text, the profile's label the secondary one
      expect(yield* promise(() => page.locator("ul.choices .name").allTextContents())).toEqual(["Greenhouse", "BambooHR"])
      expect(yield* promise(() => page.locator("ul.choices .profile").allTextContents())).toEqual(["Recruiting", "People"])
      for (const name of ["Greenhouse", "BambooHR"]) {
        const choice = page.getByRole("button", { name: new RegExp(name) })
        // the icon is decorative (the name is beside it), and it loaded
        const icon = choice.locator("img")
        expect(yield* promise(() => icon.getAttribute("alt"))).toBe("")
        yield* promise(() => icon.evaluate((img: any) => img.decode()))
        expect(yield* promise(() => icon.evaluate((img: any) => img.naturalWidth))).toBe(64)
      }
      yield* shot(page, "picker")
      const icons = requests.filter((url) => url.includes("/connect/icons/"))
      expect(icons.sort()).toEqual([
        `${base}/connect/icons/bamboohr.svg?name=BambooHR`,
        `${base}/connect/icons/greenhouse.svg?name=Greenhouse`
      ])
      expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
    }))

  it.scoped("the API-key form: labels, a password field, hints, and required errors beside the fields without a request", () =>
    Effect.gen(function*() {
      const shot = screenshots("form")
      const { mint } = yield* setup
      // one connector: no picker
      const session = yield* mint({ provider: "greenhouse" })
      const { context, page } = yield* newPage
      const requests = recordRequests(context)
      yield* open(page, session.auth_link_url)
      expect(yield* text(heading(page))).toBe("Connect Greenhouse")
      expect(yield* text(page.locator(".header .profile"))).toBe("Recruiting")
      expect(yield* text(page.locator(".header .method"))).toBe("Harvest API key")
      const apiKey = page.getByLabel("Harvest API key")
      expect(yield* promise(() => apiKey.getAttribute("type"))).toBe("password")
      expect(yield* promise(() => apiKey.getAttribute("required"))).toBe("")
      const hintId = (yield* promise(() => apiKey.getAttribute("aria-describedby")))!
      expect(yield* text(page.locator(`#${hintId}`))).toBe("Create it under Configure > Dev Center > API Credential Management")
      const actingUser = page.getByLabel("Acting user id (optional)")
      expect(yield* promise(() => actingUser.getAttribute("type"))).toBe("text")
      expect(yield* promise(() => actingUser.getAttribute("placeholder"))).toBe("4001")
      expect(yield* promise(() => actingUser.getAttribute("required"))).toBeNull()
      yield* shot(page, "form")

      yield* promise(() => page.getByRole("button", { name: "Connect", exact: true }).click())
      const error = page.locator(".field-error:visible")
      yield* promise(() => error.waitFor())
      expect(yield* text(error)).toBe("Enter Harvest API key.")
      expect(yield* promise(() => apiKey.getAttribute("aria-invalid"))).toBe("true")
      const describedBy = (yield* promise(() => apiKey.getAttribute("aria-describedby")))!.split(" ")
      expect(describedBy).toEqual([hintId, (yield* promise(() => error.getAttribute("id")))!])
      expect(yield* promise(() => apiKey.evaluate((input) => input === (globalThis as any).document.activeElement))).toBe(true)
      // the optional field is not in error
      expect(yield* promise(() => actingUser.getAttribute("aria-invalid"))).toBeNull()
      yield* shot(page, "required error")
      expect(requests.filter((url) => url.includes("/connect_sessions/link"))).toEqual([])

      // typing clears the error
      yield* promise(() => apiKey.fill("something"))
      yield* promise(() => error.waitFor({ state: "hidden" }))
      expect(yield* promise(() => apiKey.getAttribute("aria-invalid"))).toBeNull()
    }))

  it.scoped("a wrong key shows the provider's reason and stores nothing; the right key then links, shows success", () =>
    Effect.gen(function*() {
      const shot = screenshots("wrong then right key")
      const { mint, projectId, sandbox } = yield* setup
      const session = yield* mint({ provider: "greenhouse" })
      const { page } = yield* newPage
      yield* open(page, session.auth_link_url)
      const apiKey = page.getByLabel("Harvest API key")
      const connect = page.getByRole("button", { name: "Connect", exact: true })
      yield* promise(() => apiKey.fill("not-the-key"))
      // hold the request to see the page while it waits
      const held = yield* holdRequests(page, "**/connect_sessions/link")
      yield* promise(() => connect.click())
      const progress = page.getByRole("button", { name: "Checking with Greenhouse…" })
      yield* promise(() => progress.waitFor())
      expect(yield* promise(() => progress.isDisabled())).toBe(true)
      expect(yield* promise(() => page.locator("form").getAttribute("aria-busy"))).toBe("true")
      yield* shot(page, "checking")
      yield* held.release
      const alert = page.locator("#connect-summary")
      yield* promise(() => alert.waitFor())
      expect(yield* promise(() => alert.getAttribute("role"))).toBe("alert")
      expect(yield* text(alert)).toMatch(/^Greenhouse refused the credentials: .*401/)
      yield* shot(page, "refused")
      expect(yield* countAccounts(projectId)).toBe(0)
      // usable again, with what was typed kept
      expect(yield* promise(() => connect.isEnabled())).toBe(true)
      expect(yield* promise(() => apiKey.inputValue())).toBe("not-the-key")

      yield* promise(() => apiKey.fill(sandbox.ats.apiKey))
      yield* promise(() => connect.click())
      yield* promise(() => page.getByRole("heading", { name: "Connected" }).waitFor())
      expect(yield* text(page.locator(".success"))).toBe("Your Greenhouse account is connected.")
      yield* shot(page, "connected")
      expect(yield* countAccounts(projectId)).toBe(1)

      // the link is spent: opening it again shows why it cannot be used
      const again = yield* open(page, session.auth_link_url)
      expect(again.status()).toBe(410)
      expect(yield* text(heading(page))).toBe("This link was already used")
      yield* shot(page, "used link")
    }))

  it.scoped("a provider that cannot be reached: a sentence the end user understands, the detail in the request log", () =>
    Effect.gen(function*() {
      const shot = screenshots("unreachable provider")
      const { client, projectId } = yield* freshProject
      const closed = yield* Effect.promise(freePort)
      const cases = [
        { baseUrl: `http://127.0.0.1:${closed}/v1`, detail: "connection failed (ECONNREFUSED)" },
        { baseUrl: "https://harvest.greenhouse.invalid/v1", detail: "cannot resolve harvest.greenhouse.invalid" }
      ]
      for (const [index, { baseUrl, detail }] of cases.entries()) {
        const profile = yield* client.connector_profiles.create_connector_profile({
          urlParams: {},
          payload: { connector_key: "greenhouse", label: `Recruiting ${index + 1}`, account_settings: { base_url: baseUrl } }
        })
        const session = yield* client.connect_sessions.create_connect_session({
          payload: { ...owner, connector_profile_id: profile.id }
        })
        const { page } = yield* newPage
        yield* open(page, session.auth_link_url)
        expect(yield* text(heading(page))).toBe("Connect Greenhouse")
        yield* promise(() => page.getByLabel("Harvest API key").fill("gh-key"))
        yield* promise(() => page.getByRole("button", { name: "Connect", exact: true }).click())
        const alert = page.locator("#connect-summary")
        yield* promise(() => alert.waitFor())
        expect(yield* text(alert)).toBe("Greenhouse could not be reached; try again or contact Test project")
        const shown = (yield* promise(() => page.locator("body").innerText())) ?? ""
        for (const technical of [new URL(baseUrl).hostname, "ENOTFOUND", "ECONNREFUSED", "provider URL", "refused"]) {
          expect(shown).not.toContain(technical)
        }
        yield* shot(page, new URL(baseUrl).hostname)
        // the form stays usable to try again
        expect(yield* promise(() => page.getByRole("button", { name: "Connect", exact: true }).isEnabled())).toBe(true)
        expect(yield* countAccounts(projectId)).toBe(0)

        yield* (yield* RequestLog).flush
        const logged = yield* client.request_logs.list_request_logs({
          urlParams: { source_types: ["connect"], account_ids: [`connect-session:${session.id}`] }
        })
        expect(logged.data.map((entry) => entry.status)).toEqual([502])
        expect(logged.data[0]!.error_message).toContain(detail)
      }
    }))

  it.scoped("with a redirect_url: lands on it with account_id, and the account answers a unified call", () =>
    Effect.gen(function*() {
      const shot = screenshots("redirect")
      const site = yield* startApplicationSite
      const { client, mint, sandbox } = yield* setup
      const session = yield* mint({ redirect_url: `${site.origin}/return?from=switchyard` })
      const { page } = yield* newPage
      yield* open(page, session.auth_link_url)
      yield* promise(() => page.getByRole("button", { name: /Greenhouse/ }).click())
      expect(yield* text(heading(page))).toBe("Connect Greenhouse")
      yield* promise(() => page.getByLabel("Harvest API key").fill(sandbox.ats.apiKey))
      yield* shot(page, "filled")
      yield* promise(() =>
        Promise.all([
          page.waitForURL(`${site.origin}/return?**`),
          page.getByRole("button", { name: "Connect", exact: true }).click()
        ])
      )
      yield* shot(page, "returned")
      const landed = new URL(page.url())
      expect(landed.searchParams.get("from")).toBe("switchyard")
      expect(landed.searchParams.get("connector_key")).toBe("greenhouse")
      const accountId = landed.searchParams.get("account_id")!
      const applications = yield* client.unified_ats.ats_list_applications({
        headers: { "x-account-id": accountId },
        urlParams: { page_size: 3 }
      })
      expect(applications.data).toHaveLength(3)
    }))

  it.scoped("works by keyboard alone: Tab to a connector, Enter, Tab through the fields, Enter", () =>
    Effect.gen(function*() {
      const shot = screenshots("keyboard")
      const { mint, projectId, sandbox } = yield* setup
      const session = yield* mint()
      const { page } = yield* newPage
      yield* open(page, session.auth_link_url)
      const press = (key: string) => promise(() => page.keyboard.press(key))
      const focused = promise(() =>
        page.evaluate(() => {
          const active = (globalThis as any).document.activeElement
          return active.tagName === "INPUT" ? `input ${active.name}` : active.textContent?.trim() ?? ""
        })
      )
      yield* press("Tab")
      expect(yield* focused).toBe("GreenhouseRecruitingATS")
      yield* press("Tab")
      expect(yield* focused).toBe("BambooHRPeopleHRIS")
      yield* shot(page, "focus on a connector")
      yield* press("Enter")
      yield* promise(() => page.getByRole("heading", { name: "Connect BambooHR" }).waitFor())
      yield* press("Tab")
      expect(yield* focused).toBe("input subdomain")
      yield* promise(() => page.keyboard.type(sandbox.hris.companyDomain))
      yield* press("Tab")
      expect(yield* focused).toBe("input apiKey")
      yield* promise(() => page.keyboard.type(sandbox.hris.apiKey))
      yield* shot(page, "typed")
      yield* press("Enter")
      yield* promise(() => page.getByRole("heading", { name: "Connected" }).waitFor())
      expect(yield* text(page.locator(".success"))).toBe("Your BambooHR account is connected.")
      yield* shot(page, "connected")
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.scoped("framed by an allowed origin: the embedding page receives switchyard:connected from this server", () =>
    Effect.gen(function*() {
      const shot = screenshots("framed")
      const base = yield* ConnectServerUrl
      const site = yield* startApplicationSite
      const { allowFraming, mint, sandbox } = yield* setup
      yield* allowFraming([site.origin])
      const session = yield* mint({ provider: "greenhouse" })
      const { page } = yield* newPage
      const frameAnswer = page.waitForResponse((response) => response.url() === session.auth_link_url)
      yield* promise(() => page.goto(`${site.origin}/embed?src=${encodeURIComponent(session.auth_link_url)}`))
      const headers = (yield* promise(() => frameAnswer)).headers()
      expect(headers["content-security-policy"]).toMatch(new RegExp(`; frame-ancestors ${site.origin}$`))
      const frame = page.frameLocator("iframe")
      yield* promise(() => frame.getByRole("heading", { name: "Connect Greenhouse" }).waitFor())
      yield* promise(() => frame.getByLabel("Harvest API key").fill("not-the-key"))
      yield* promise(() => frame.getByRole("button", { name: "Connect", exact: true }).click())
      const refused = yield* waitForMessage(page, "switchyard:error")
      expect(refused.origin).toBe(base)
      expect(refused.data).toEqual({ type: "switchyard:error", message: expect.stringMatching(/^Greenhouse refused the credentials/) })
      yield* shot(page, "refused in the frame")
      yield* promise(() => frame.getByLabel("Harvest API key").fill(sandbox.ats.apiKey))
      yield* promise(() => frame.getByRole("button", { name: "Connect", exact: true }).click())
      const message = yield* waitForMessage(page, "switchyard:connected")
      expect(message.origin).toBe(base)
      expect(Object.keys(message.data).sort()).toEqual(["account_id", "connector_key", "type"])
      expect(message.data.connector_key).toBe("greenhouse")
      yield* promise(() => frame.getByRole("heading", { name: "Connected" }).waitFor())
      yield* shot(page, "connected in the frame")
      const [linked] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ account_id: string }>`SELECT account_id FROM connect_sessions WHERE id = ${session.id}`).pipe(Effect.orDie)
      expect(message.data.account_id).toBe(linked!.account_id)
    }))

  it.scoped("an origin the project does not allow cannot frame the page (CSP frame-ancestors)", () =>
    Effect.gen(function*() {
      const shot = screenshots("framing refused")
      const allowed = yield* startApplicationSite
      const other = yield* startApplicationSite
      const { allowFraming, mint } = yield* setup
      yield* allowFraming([allowed.origin])
      const session = yield* mint()
      const { page } = yield* newPage
      const refusal = page.waitForEvent("console", (message) => message.text().includes("frame-ancestors"))
      const frameAnswer = page.waitForResponse((response) => response.url() === session.auth_link_url)
      yield* promise(() => page.goto(`${other.origin}/embed?src=${encodeURIComponent(session.auth_link_url)}`))
      const headers = (yield* promise(() => frameAnswer)).headers()
      expect(headers["content-security-policy"]).toMatch(new RegExp(`; frame-ancestors ${allowed.origin}$`))
      const refused = yield* promise(() => refusal)
      expect(refused.text()).toContain(`"frame-ancestors ${allowed.origin}"`)
      // the frame holds the browser's error page, not the connect page
      const child = page.frames().find((frame) => frame !== page.mainFrame())!
      yield* promise(() => child.waitForURL("chrome-error://chromewebdata/"))
      expect(yield* promise(() => child.locator("#switchyard-connect-data").count())).toBe(0)
      yield* shot(page, "refused")
      expect(yield* receivedMessages(page)).toEqual([])
    }))

  it.scoped("an unknown, expired or used link shows an error page with 401 or 410", () =>
    Effect.gen(function*() {
      const shot = screenshots("unusable links")
      const base = yield* ConnectServerUrl
      const { mint } = yield* setup
      const { page } = yield* newPage

      const unknown = yield* open(page, `${base}/connect?token=not-a-token`)
      expect(unknown.status()).toBe(401)
      expect(yield* text(heading(page))).toBe("This link is not valid")
      expect(yield* text(page.getByRole("alert"))).toMatch(/Ask the application that sent you here for a new link\.$/)
      yield* shot(page, "unknown")

      const session = yield* mint()
      yield* expire(session.token)
      const expired = yield* open(page, session.auth_link_url)
      expect(expired.status()).toBe(410)
      expect(yield* text(heading(page))).toBe("This link has expired")
      yield* shot(page, "expired")
    }))

  it.scoped("opened in a popup: the opener hears switchyard:connected at redirect_url's origin, or switchyard:closed on Cancel", () =>
    Effect.gen(function*() {
      const shot = screenshots("popup")
      const base = yield* ConnectServerUrl
      const site = yield* startApplicationSite
      const { mint, sandbox } = yield* setup
      const { context, page } = yield* newPage

      // Cancel: the opener hears switchyard:closed and the popup closes
      const cancelled = yield* mint({ provider: "greenhouse" })
      yield* promise(() => page.goto(`${site.origin}/opener?src=${encodeURIComponent(cancelled.auth_link_url)}`))
      const [first] = yield* promise(() => Promise.all([context.waitForEvent("page"), page.locator("#open").click()]))
      yield* promise(() => first.getByRole("heading", { name: "Connect Greenhouse" }).waitFor())
      yield* promise(() => clickClosing(first, () => first.getByRole("button", { name: "Cancel" }).click()))
      const closed = yield* waitForMessage(page, "switchyard:closed")
      expect(closed).toEqual({ origin: base, data: { type: "switchyard:closed" } })

      // connected: the session's redirect_url is on the opener's origin, so it may hear the account
      const session = yield* mint({ provider: "greenhouse", redirect_url: `${site.origin}/return` })
      yield* promise(() => page.goto(`${site.origin}/opener?src=${encodeURIComponent(session.auth_link_url)}`))
      const [popup] = yield* promise(() => Promise.all([context.waitForEvent("page"), page.locator("#open").click()]))
      yield* promise(() => popup.getByLabel("Harvest API key").fill(sandbox.ats.apiKey))
      yield* shot(popup, "popup form")
      yield* promise(() =>
        Promise.all([
          popup.waitForURL(`${site.origin}/return?**`),
          popup.getByRole("button", { name: "Connect", exact: true }).click()
        ])
      )
      const connected = yield* waitForMessage(page, "switchyard:connected")
      expect(connected.origin).toBe(base)
      expect(connected.data.account_id).toBe(new URL(popup.url()).searchParams.get("account_id"))
      yield* shot(popup, "returned")
    }))
})
