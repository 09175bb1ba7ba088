import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Page } from "playwright-core"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { BrowserLive, ConnectServerUrl, ConnectTestServer } from "./support/browser.js"
import { dashboardScreenshots, openDashboard, openSection, seriousAccessibilityViolations, signIn, viewHeading as heading } from "./support/dashboard.js"
import { countAccounts, freshProject, keyFor } from "./support/Fixtures.js"
import { sandboxGreenhouseAccount, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"

/*
 * The dashboard's Accounts and Request logs views in Chromium, as a person uses them: a
 * sandbox account linked end to end through a connect link made in the dashboard, its page,
 * suspension, a failed call found in the logs, deletion; and what a Read Only session sees.
 * Screenshots: packages/server/test-artifacts/dashboard/.
 */

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** The page passes the accessibility audit, and its screenshot is taken. */
const checked = (shot: ReturnType<typeof dashboardScreenshots>, page: Page, view: string) =>
  Effect.gen(function*() {
    expect(yield* seriousAccessibilityViolations(page), view).toEqual([])
    yield* shot(page, view)
  })


const server = Layer.mergeAll(ConnectTestServer(), SandboxLive(7), BrowserLive)

layer(server, { excludeTestServices: true })("the dashboard's accounts and request logs", (it) => {
  it.scoped("links an account through a new connect link, suspends and activates it, finds its failed call, deletes it", () =>
    Effect.gen(function*() {
      const shot = dashboardScreenshots("accounts")
      const base = yield* ConnectServerUrl
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      // the profile sends Greenhouse accounts to the sandbox's ATS
      yield* project.client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Recruiting", account_settings: { base_url: sandbox.ats.baseUrl } }
      })
      const { page, cspViolations } = yield* openDashboard(base)
      yield* signIn(page, project.key)
      yield* openSection(page, "Accounts")
      yield* promise(() => page.getByText("No accounts linked yet").waitFor())
      yield* checked(shot, page, "no accounts")

      // a connect link for a customer, narrowed to the profile
      yield* promise(() => page.getByRole("button", { name: "New connect link" }).click())
      yield* promise(() => page.getByLabel("Owner id").fill("customer-42"))
      yield* promise(() => page.getByLabel("Owner name").fill("Acme Inc"))
      yield* promise(() => page.getByLabel("Link to").selectOption({ label: "Greenhouse – Recruiting" }))
      yield* checked(shot, page, "new connect link form")
      yield* promise(() => page.getByRole("button", { name: "Create link" }).click())
      const linkField = page.getByLabel("Connect link", { exact: true })
      yield* promise(() => linkField.waitFor())
      const link = yield* promise(() => linkField.inputValue())
      expect(link).toMatch(new RegExp(`^${base}/connect\\?token=`))
      yield* checked(shot, page, "connect link")

      // the customer opens it (another tab) and links their Greenhouse account on the sandbox
      const customer = yield* promise(() => page.context().newPage())
      yield* promise(() => customer.goto(link))
      yield* promise(() => customer.getByRole("heading", { name: "Connect Greenhouse" }).waitFor())
      yield* promise(() => customer.getByLabel("Harvest API key").fill(sandbox.ats.apiKey))
      yield* promise(() => customer.getByRole("button", { name: "Connect", exact: true }).click())
      yield* promise(() => customer.getByRole("heading", { name: "Connected" }).waitFor())
      yield* promise(() => customer.close())
      expect(yield* countAccounts(project.projectId)).toBe(1)

      // back in the dashboard, Done shows the list again with the new account
      yield* promise(() => page.getByRole("button", { name: "Done" }).click())
      const accountLink = page.getByRole("link", { name: "Greenhouse (Acme Inc)" })
      yield* promise(() => accountLink.waitFor())
      const row = page.getByRole("row").filter({ has: accountLink })
      expect(yield* promise(() => row.getByRole("cell").allInnerTexts())).toEqual([
        "Greenhouse (Acme Inc)",
        "Greenhouse",
        "Acme Inc\ncustomer-42",
        "active",
        "never",
        expect.any(String)
      ])
      yield* checked(shot, page, "account listed")

      // filters: a status no account has, then the owner's
      yield* promise(() => page.getByLabel("Status").selectOption("suspended"))
      yield* promise(() => page.getByRole("button", { name: "Filter" }).click())
      yield* promise(() => page.getByText("No account matches these filters").waitFor())
      expect(new URL(page.url()).hash).toBe("#/accounts?status=suspended")
      yield* checked(shot, page, "no account matches")
      yield* promise(() => page.getByRole("link", { name: "Clear filters" }).first().click())
      yield* promise(() => page.getByLabel("Owner").selectOption("customer-42"))
      yield* promise(() => page.getByRole("button", { name: "Filter" }).click())
      yield* promise(() => page.waitForURL((url) => url.hash === "#/accounts?owner_id=customer-42"))
      yield* promise(() => accountLink.waitFor())

      // the account's page: facts, settings (from the profile), the operations it serves
      yield* promise(() => accountLink.click())
      yield* promise(() => heading(page, "Greenhouse (Acme Inc)").waitFor())
      const facts = page.locator("dl.facts").first()
      expect(yield* promise(() => facts.innerText())).toMatch(/Linked via\s+Connect link/)
      expect(yield* promise(() => facts.getByRole("link", { name: "Recruiting" }).isVisible())).toBe(true)
      const settings = page.locator("h2:has-text('Settings') + dl")
      expect(yield* promise(() => settings.innerText())).toContain(sandbox.ats.baseUrl)
      // a disclosure per unified model
      yield* promise(() => page.getByText("ats_applications", { exact: true }).click())
      const operations = page.getByRole("table", { name: "Operations of ats_applications" })
      yield* promise(() => operations.getByRole("cell", { name: "ats_list_applications", exact: true }).waitFor())
      expect(yield* promise(() => operations.getByRole("row", { name: "ats_list_applications GET /unified/ats/applications", exact: true }).isVisible()))
        .toBe(true)
      yield* promise(() => page.getByText("No requests yet").waitFor())
      yield* checked(shot, page, "account")
      const accountUrl = page.url()
      const accountId = decodeURIComponent(new URL(accountUrl).hash.split("/")[2]!)

      // suspend: calls are refused until it is activated again
      yield* promise(() => page.getByRole("button", { name: "Suspend" }).click())
      yield* promise(() => page.getByRole("button", { name: "Activate" }).waitFor())
      expect(yield* promise(() => page.locator(".status-line .badge").innerText())).toBe("suspended")
      expect(yield* promise(() => page.locator("ul.reasons").innerText())).toContain("Suspended in the dashboard")
      yield* checked(shot, page, "account suspended")
      const suspended = yield* project.client.accounts.get_account({ path: { id: accountId }, urlParams: {} })
      expect(suspended.status).toBe("suspended")
      yield* promise(() => page.getByRole("button", { name: "Activate" }).click())
      yield* promise(() => page.getByRole("button", { name: "Suspend" }).waitFor())
      expect(yield* promise(() => page.locator(".status-line .badge").innerText())).toBe("active")
      expect(yield* promise(() => page.locator("ul.reasons").count())).toBe(0)

      // two calls on it: one the sandbox answers, one it refuses (400)
      const rpc = () =>
        project.client.actions.rpc_action({
          headers: { "x-account-id": accountId },
          payload: { action: "ats_list_applications", query: { page_size: 2 } }
        })
      yield* rpc()
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "status", status: 400, times: 1 })
      expect((yield* Effect.flip(rpc()))._tag).toBe("BadRequest")
      yield* (yield* RequestLog).flush

      // the account's page lists them, newest first, and links to the whole log of it
      yield* promise(() => page.reload())
      yield* promise(() => heading(page, "Greenhouse (Acme Inc)").waitFor())
      const recent = page.getByRole("table", { name: "The account's last requests, newest first" })
      yield* promise(() => recent.waitFor())
      expect(yield* promise(() => recent.locator("tbody tr td:nth-child(5)").allInnerTexts())).toEqual(["400 failed", "200 OK"])
      yield* checked(shot, page, "account with requests")
      yield* promise(() => page.getByRole("link", { name: "All requests of this account" }).click())
      yield* promise(() => heading(page, "Request logs").waitFor())
      expect(new URL(page.url()).hash).toBe(`#/logs?account_ids=${accountId}`)
      expect(yield* promise(() => page.getByLabel("Account").inputValue())).toBe(accountId)
      const logs = page.getByRole("table", { name: "Request log entries" })
      yield* promise(() => logs.waitFor())
      expect(yield* promise(() => logs.locator("tbody tr").count())).toBe(2)
      yield* checked(shot, page, "account's request logs")

      // only the failed call
      yield* promise(() => page.getByLabel("Outcome").selectOption({ label: "Failed" }))
      yield* promise(() => page.getByRole("button", { name: "Filter" }).click())
      yield* promise(() => page.waitForURL((url) => url.hash === `#/logs?account_ids=${accountId}&success=false`))
      const failedRows = logs.locator("tbody tr")
      // the unfiltered rows stay until the filtered list arrives: wait for the successful call's row to go
      yield* promise(() => failedRows.filter({ hasText: "200 OK" }).waitFor({ state: "detached" }))
      expect(yield* promise(() => failedRows.count())).toBe(1)
      expect(yield* promise(() => failedRows.first().getByRole("cell").allInnerTexts())).toEqual([
        expect.any(String),
        "Greenhouse (Acme Inc)",
        "greenhouse",
        "ats_list_applications",
        "Action RPC",
        "400 failed",
        expect.stringMatching(/\d+ ms|\d\.\d\d s/)
      ])
      yield* checked(shot, page, "failed request logs")

      // its detail: the call, what it was answered, the provider call
      yield* promise(() => failedRows.first().getByRole("link").first().click())
      yield* promise(() => heading(page, "ats_list_applications · failed").waitFor())
      const request = page.locator("dl.facts")
      expect(yield* promise(() => request.innerText())).toMatch(/Outcome\s+400 failed/)
      expect(yield* promise(() => request.getByRole("link", { name: "Greenhouse (Acme Inc)" }).isVisible())).toBe(true)
      const step = page.locator("ol.steps li")
      expect(yield* promise(() => step.count())).toBe(1)
      expect(yield* promise(() => step.innerText())).toMatch(/400 failed\s+GET .*\/v1\/applications/)
      expect(yield* promise(() => page.locator("main").innerText())).not.toContain(sandbox.ats.apiKey)
      yield* promise(() => page.getByText("This project does not keep provider bodies").waitFor())
      yield* checked(shot, page, "failed request")

      // back to the account, and delete it after confirming
      yield* promise(() => page.getByRole("link", { name: "The account" }).click())
      yield* promise(() => heading(page, "Greenhouse (Acme Inc)").waitFor())
      yield* promise(() => page.getByRole("button", { name: "Delete" }).click())
      const dialog = page.getByRole("dialog", { name: "Delete “Greenhouse (Acme Inc)”?" })
      yield* promise(() => dialog.waitFor())
      yield* checked(shot, page, "delete confirmation")
      // cancelling keeps it
      yield* promise(() => dialog.getByRole("button", { name: "Cancel" }).click())
      yield* promise(() => dialog.waitFor({ state: "hidden" }))
      expect(yield* countAccounts(project.projectId)).toBe(1)
      yield* promise(() => page.getByRole("button", { name: "Delete" }).click())
      yield* promise(() => dialog.getByRole("button", { name: "Delete account" }).click())
      yield* promise(() => heading(page, "Accounts").waitFor())
      yield* promise(() => page.getByText("No accounts linked yet").waitFor())
      expect(yield* countAccounts(project.projectId)).toBe(0)
      yield* checked(shot, page, "account deleted")

      // a deleted account's page says so in words
      yield* promise(() => page.goto(accountUrl))
      yield* promise(() => heading(page, "Account").waitFor())
      expect(yield* promise(() => page.getByRole("alert").innerText())).toBe(`Could not load the account. Account ${accountId} not found`)
      yield* checked(shot, page, "deleted account")
      expect(cspViolations).toEqual([])
    }))

  it.scoped("a Read Only session sees accounts and logs without write controls, and the server refuses a forced write", () =>
    Effect.gen(function*() {
      const shot = dashboardScreenshots("accounts read only")
      const base = yield* ConnectServerUrl
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      const readOnly = yield* keyFor(project.projectId, "read_only")
      const { page, cspViolations } = yield* openDashboard(base)
      yield* signIn(page, readOnly.key)
      yield* openSection(page, "Accounts")
      yield* promise(() => page.getByRole("link", { name: account.name }).waitFor())
      expect(yield* promise(() => page.getByRole("button", { name: "New connect link" }).count())).toBe(0)
      yield* checked(shot, page, "accounts")

      yield* promise(() => page.getByRole("link", { name: account.name }).click())
      yield* promise(() => heading(page, account.name).waitFor())
      yield* promise(() => page.getByRole("heading", { name: "Operations" }).waitFor())
      yield* promise(() => page.getByText("ats_applications", { exact: true }).waitFor())
      for (const control of ["Suspend", "Activate", "Delete"]) {
        expect(yield* promise(() => page.getByRole("button", { name: control }).count()), control).toBe(0)
      }
      yield* checked(shot, page, "account")

      // the session's cookie alone cannot write, whatever the page offers
      const forced = yield* promise(() =>
        page.evaluate(async (id) => {
          const response = await fetch(`/v2/accounts/${id}`, { method: "DELETE" })
          return response.status
        }, account.id)
      )
      expect(forced).toBe(403)
      expect(yield* countAccounts(project.projectId)).toBe(1)

      yield* openSection(page, "Request logs")
      yield* promise(() => page.getByText("No requests logged yet").waitFor())
      yield* checked(shot, page, "request logs")
      expect(cspViolations).toEqual([])
    }))
})
