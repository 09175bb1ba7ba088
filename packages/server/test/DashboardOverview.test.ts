import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Crypto from "node:crypto"
import type { Locator } from "playwright-core"
import { Webhook } from "standardwebhooks"
import { BrowserLive, ConnectTestServer } from "./support/browser.js"
import {
  checkView,
  dashboardScreenshots,
  openSection,
  signedInDashboard as signedIn,
  viewHeading as heading
} from "./support/dashboard.js"
import { accountBody, freshProject, keyFor } from "./support/Fixtures.js"
import { eventually, type ReceivedWebhook, WebhookReceiver } from "./support/WebhookReceiver.js"

/*
 * The dashboard's Overview and Webhooks views in Chromium, signed in as a person is: the
 * overview's figures against request logs written for the test, the chart and its table,
 * accounts by status and failing endpoints; an endpoint added, tested, failing, retried,
 * its secret rotated and deleted from the page; a Read Only session that sees no write
 * control. Screenshots: packages/server/test-artifacts/dashboard/.
 */

/**
 * A failed delivery waits a day for its one scheduled retry, then is given up: the page's Retry
 * is the only thing that sends it again while the test runs. Due deliveries are looked for
 * every 20 ms.
 */
const server = Layer.mergeAll(
  ConnectTestServer({ SWITCHYARD_WEBHOOK_RETRY_SECONDS: "86400", SWITCHYARD_WEBHOOK_POLL_MS: "20" }),
  BrowserLive
)

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

interface LogRow {
  readonly ago: number
  readonly provider: string
  readonly status: number
  readonly duration: number
}

/** Request log rows at times before now, as RequestLogStats.test writes them. */
const insertRequestLogs = (projectId: string, accountId: string, rows: ReadonlyArray<LogRow>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const row of rows) {
      yield* sql`
        INSERT INTO request_logs (id, project_id, account_id, kind, action, status, duration_ms, provider, created_at)
        VALUES (${Crypto.randomUUID()}, ${projectId}, ${accountId}, 'unified', 'ats_list_jobs', ${row.status},
                ${row.duration}, ${row.provider}, ${new Date(Date.now() - row.ago).toISOString()}::timestamptz)`
    }
  }).pipe(Effect.orDie)

/** What the locator shows, as read on screen (innerText: block boundaries are spaces), spaces collapsed. */
const text = (locator: Locator) => promise(async () => (await locator.innerText()).replace(/\s+/g, " ").trim())


const verified = (secret: string, request: ReceivedWebhook) =>
  new Webhook(secret).verify(request.body, request.headers) as { readonly type: string }

layer(server, { excludeTestServices: true })("the dashboard's overview and webhooks in Chromium", (it) => {
  it.scoped("the overview shows the project's request figures, chart, accounts by status and what to do when empty", () =>
    Effect.gen(function*() {
      const shoot = dashboardScreenshots("overview")
      const { client, key, projectId } = yield* freshProject

      // an empty project: every panel says what to do
      const dashboard = yield* signedIn(key)
      const { page } = dashboard
      yield* promise(() => heading(page, "Overview").waitFor())
      yield* promise(() => page.getByText("No requests in the last 24 hours").waitFor())
      yield* promise(() => page.getByText("No accounts linked yet").waitFor())
      yield* promise(() => page.getByText("No webhook endpoints", { exact: true }).waitFor())
      yield* checkView(dashboard, shoot, "empty project")

      // two accounts, one in error, and the requests of the last week
      const active = yield* client.accounts.create_account({ payload: accountBody() })
      const broken = yield* client.accounts.create_account({ payload: accountBody({ connector_key: "lever", name: "Lever" }) })
      yield* client.accounts.patch_account({
        path: { id: broken.id },
        urlParams: {},
        payload: { status: "error", status_reasons: [{ code: "auth_failed", description: "token revoked" }] }
      })
      yield* insertRequestLogs(projectId, active.id, [
        { ago: 10 * MINUTE, provider: "greenhouse", status: 200, duration: 100 },
        { ago: 20 * MINUTE, provider: "greenhouse", status: 200, duration: 120 },
        { ago: 3 * HOUR, provider: "greenhouse", status: 502, duration: 900 },
        { ago: 5 * HOUR, provider: "lever", status: 200, duration: 80 },
        { ago: 5 * HOUR, provider: "lever", status: 404, duration: 60 },
        // in the 7 days, not in the 24 hours
        { ago: 3 * DAY, provider: "greenhouse", status: 200, duration: 150 },
        { ago: 4 * DAY, provider: "lever", status: 200, duration: 70 },
        // older than either
        { ago: 20 * DAY, provider: "greenhouse", status: 200, duration: 10 }
      ])
      // what the API answers for the same range is what the page shows
      const stats = yield* client.request_logs.get_request_log_stats({ urlParams: { interval: "hour", group_by: "provider" } })
      expect(stats.totals).toMatchObject({ requests: 5, errors: 2 })

      yield* promise(() => page.reload())
      const figures = page.getByRole("group", { name: "Figures of the last 24 hours" })
      yield* promise(() => figures.waitFor())
      expect(yield* text(figures)).toBe("Requests 5 Errors 2 40.0% error rate p50 latency 100 ms p95 latency 900 ms")
      const chart = page.getByRole("img", { name: /^Requests per hour over the last 24 hours, by provider: 5 requests, 2 errors \(40\.0%\)/ })
      const canvas = chart.locator("canvas")
      yield* promise(() => canvas.first().waitFor())
      const box = yield* promise(() => canvas.first().boundingBox())
      expect(box!.width).toBeGreaterThan(600)
      expect(box!.height).toBeGreaterThan(200)
      expect(yield* text(chart.locator("xpath=..").getByRole("list", { name: "Lines" }))).toBe(
        "greenhouse (3) lever (2) Error rate (right axis)"
      )
      // accounts by status, each count a link to the accounts in that status
      const errorLink = page.getByRole("link", { name: "1 error account", exact: true })
      expect(yield* promise(() => errorLink.getAttribute("href"))).toBe("#/accounts?status=error")
      expect(yield* promise(() => page.getByRole("link", { name: "1 active account", exact: true }).getAttribute("href")))
        .toBe("#/accounts?status=active")
      yield* checkView(dashboard, shoot, "last 24 hours")

      // the chart's figures as a table, for those who cannot see the lines
      yield* promise(() => page.getByText("The chart's figures as a table").click())
      const table = page.getByRole("table", { name: /Requests per hour over the last 24 hours/ })
      yield* promise(() => table.waitFor())
      // its header and the hours with requests (10 and 20 minutes ago may share one); the others are counted
      const busyHours = stats.buckets.filter((bucket) => bucket.requests > 0).length
      expect(yield* promise(() => table.getByRole("row").count())).toBe(1 + busyHours)
      expect(yield* text(page.getByText(/had no requests and are left out/))).toBe(`${24 - busyHours} of the 24 hours had no requests and are left out.`)
      yield* checkView(dashboard, shoot, "last 24 hours as a table")

      // the 7 days: the older requests join, the one of 20 days ago does not
      yield* promise(() => page.getByRole("group", { name: "Time range" }).getByRole("button", { name: "7 days" }).click())
      const week = page.getByRole("group", { name: "Figures of the last 7 days" })
      yield* promise(() => week.waitFor())
      expect(yield* text(week)).toMatch(/^Requests 7 Errors 2 28\.6% error rate/)
      yield* promise(() => page.getByRole("img", { name: /^Requests per hour over the last 7 days, by provider: 7 requests/ }).waitFor())
      expect(yield* promise(() => page.getByRole("button", { name: "7 days" }).getAttribute("aria-pressed"))).toBe("true")
      expect(page.url()).toMatch(/#\/\?range=7d$/)
      yield* checkView(dashboard, shoot, "last 7 days")
    }))

  it.scoped("webhooks: add an endpoint, its secret once, a test event delivered, a failing one retried, rotate, delete", () =>
    Effect.gen(function*() {
      const shoot = dashboardScreenshots("webhooks")
      const receiver = yield* WebhookReceiver
      // the second endpoint answers 500 twice, then 200
      receiver.script("/broken", [{ status: 500 }, { status: 500 }])
      const { key, client } = yield* freshProject
      const dashboard = yield* signedIn(key)
      const { page } = dashboard

      yield* openSection(page, "Webhooks")
      yield* promise(() => page.getByText("No webhook endpoints yet").waitFor())
      yield* checkView(dashboard, shoot, "no endpoints")

      // an endpoint: its secret is shown once
      const addEndpoint = (url: string) =>
        Effect.gen(function*() {
          const form = page.getByRole("form", { name: "Add a webhook endpoint" })
          yield* promise(() => form.getByLabel("URL").fill(url))
          yield* promise(() => form.getByRole("button", { name: "Add endpoint" }).click())
          const secret = page.getByLabel(`Signing secret of ${url}`)
          yield* promise(() => secret.waitFor())
          return yield* promise(() => secret.inputValue())
        })
      const form = page.getByRole("form", { name: "Add a webhook endpoint" })
      // a URL that is not one is refused in words
      yield* promise(() => form.getByLabel("URL").fill("not a url"))
      yield* promise(() => form.getByRole("button", { name: "Add endpoint" }).click())
      yield* promise(() => form.getByRole("alert").filter({ hasText: "url must be an absolute http or https URL" }).waitFor())
      // the events chosen are the ones the endpoint gets
      yield* promise(() => form.getByLabel("account.deleted").uncheck())
      yield* promise(() => form.getByLabel("connect_session.completed").check())
      const healthyUrl = receiver.url("/healthy")
      const secret = yield* addEndpoint(healthyUrl)
      expect(secret).toMatch(/^whsec_/)
      const row = page.getByRole("row").filter({ hasText: healthyUrl })
      yield* promise(() => row.waitFor())
      expect(yield* text(row)).toContain("account.created account.updated connect_session.completed Enabled")
      yield* checkView(dashboard, shoot, "endpoint added with its secret")
      yield* promise(() => page.getByRole("button", { name: "Done" }).click())
      expect(yield* promise(() => page.getByLabel(`Signing secret of ${healthyUrl}`).count())).toBe(0)

      // a test event is delivered, signed with that secret, and shows in the deliveries
      yield* promise(() => page.getByRole("link", { name: healthyUrl }).click())
      yield* promise(() => heading(page, "Webhook endpoint").waitFor())
      yield* promise(() => page.getByText("No deliveries yet").waitFor())
      yield* promise(() => page.getByRole("button", { name: "Send test event" }).click())
      const deliveries = page.getByRole("table", { name: "Deliveries to this endpoint, newest first" })
      const delivered = deliveries.getByRole("row").filter({ hasText: "webhook.test" }).filter({ hasText: "Succeeded" })
      yield* promise(() => delivered.waitFor())
      expect(yield* text(delivered)).toMatch(/^webhook\.test Succeeded 1 HTTP 200 /)
      const [request] = receiver.received("/healthy")
      expect(verified(secret, request!).type).toBe("webhook.test")
      yield* checkView(dashboard, shoot, "endpoint with a delivered test event")

      // a failing endpoint: its test event fails, and the overview lists the endpoint
      yield* promise(() => page.getByRole("link", { name: "← Webhooks" }).click())
      const brokenUrl = receiver.url("/broken")
      yield* addEndpoint(brokenUrl)
      yield* promise(() => page.getByRole("link", { name: brokenUrl }).click())
      yield* promise(() => heading(page, "Webhook endpoint").waitFor())
      yield* promise(() => page.getByRole("button", { name: "Send test event" }).click())
      const failing = deliveries.getByRole("row").filter({ hasText: "webhook.test" })
      yield* promise(() => failing.filter({ hasText: "HTTP 500" }).waitFor())
      expect(yield* text(failing)).toMatch(/^webhook\.test Pending 1 HTTP 500 /)
      yield* checkView(dashboard, shoot, "endpoint with a failed delivery")

      yield* openSection(page, "Overview")
      const failingPanel = page.getByRole("region", { name: "Webhook endpoints failing" })
      const failingLink = failingPanel.getByRole("link", { name: brokenUrl })
      yield* promise(() => failingLink.waitFor())
      expect(yield* text(failingPanel.getByRole("listitem"))).toMatch(/^Failing .*\/broken Latest delivery \(webhook\.test\) failed 1 attempt: HTTP 500/)
      expect(yield* promise(() => failingPanel.getByRole("link").count())).toBe(1)
      yield* checkView(dashboard, shoot, "overview with a failing endpoint")

      // retried from the page: the attempts grow, given up after the second, delivered on the third
      yield* promise(() => failingLink.click())
      yield* promise(() => heading(page, "Webhook endpoint").waitFor())
      yield* promise(() => failing.getByRole("button", { name: /^Retry/ }).click())
      yield* promise(() => failing.filter({ hasText: "Failed" }).waitFor())
      expect(yield* text(failing)).toMatch(/^webhook\.test Failed 2 HTTP 500 /)
      yield* checkView(dashboard, shoot, "delivery retried and given up")
      yield* promise(() => failing.getByRole("button", { name: /^Retry/ }).click())
      yield* promise(() => failing.filter({ hasText: "Succeeded" }).waitFor())
      expect(yield* text(failing)).toMatch(/^webhook\.test Succeeded 3 HTTP 200 /)
      expect(receiver.received("/broken")).toHaveLength(3)
      expect(yield* promise(() => failing.getByRole("button", { name: /^Retry/ }).count())).toBe(0)

      // the secret rotated: the new one shown once, and the next delivery signed with it
      yield* promise(() => page.getByRole("button", { name: "Rotate secret" }).click())
      const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" })
      yield* promise(() => dialog.waitFor())
      yield* checkView(dashboard, shoot, "rotate secret confirmation")
      yield* promise(() => dialog.getByRole("button", { name: "Rotate secret" }).click())
      const newSecretField = page.getByLabel("The new signing secret")
      yield* promise(() => newSecretField.waitFor())
      const newSecret = yield* promise(() => newSecretField.inputValue())
      expect(newSecret).toMatch(/^whsec_/)
      expect(newSecret).not.toBe(secret)
      yield* promise(() => page.getByText(/^also signs deliveries until /).waitFor())
      yield* checkView(dashboard, shoot, "new secret shown once")
      yield* promise(() => page.getByRole("button", { name: "Done" }).click())
      expect(yield* promise(() => newSecretField.count())).toBe(0)
      yield* promise(() => page.reload())
      yield* promise(() => heading(page, "Webhook endpoint").waitFor())
      yield* promise(() => failing.first().waitFor())
      expect(yield* promise(() => page.getByLabel("The new signing secret").count())).toBe(0)
      yield* promise(() => page.getByRole("button", { name: "Send test event" }).click())
      const signed = yield* eventually(
        Effect.sync(() => receiver.received("/broken")[3]),
        "the test event after the rotation"
      )
      expect(verified(newSecret, signed).type).toBe("webhook.test")

      // an account's event leads to that account's requests in the log
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      yield* promise(() => page.reload())
      const accountEvent = deliveries.getByRole("row").filter({ hasText: "account.created" })
      yield* promise(() => accountEvent.waitFor())
      yield* promise(() => accountEvent.getByRole("link", { name: "The account's requests" }).click())
      yield* promise(() => heading(page, "Request logs").waitFor())
      expect(new URLSearchParams(new URL(page.url()).hash.split("?")[1]).get("account_ids")).toBe(account.id)
      yield* promise(() => page.goBack())
      yield* promise(() => heading(page, "Webhook endpoint").waitFor())

      // disabled, then deleted after a confirmation: the list keeps the other endpoint only
      yield* promise(() => page.getByRole("button", { name: "Disable" }).click())
      yield* promise(() => page.getByRole("button", { name: "Enable" }).waitFor())
      yield* promise(() => page.getByRole("button", { name: "Delete" }).click())
      const confirmDelete = page.getByRole("dialog", { name: "Delete this endpoint?" })
      yield* promise(() => confirmDelete.getByRole("button", { name: "Cancel" }).click())
      yield* promise(() => confirmDelete.waitFor({ state: "hidden" }))
      yield* promise(() => page.getByRole("button", { name: "Delete" }).click())
      yield* promise(() => confirmDelete.getByRole("button", { name: "Delete endpoint" }).click())
      yield* promise(() => heading(page, "Webhooks").waitFor())
      yield* promise(() => page.getByRole("link", { name: healthyUrl }).waitFor())
      expect(yield* promise(() => page.getByRole("link", { name: brokenUrl }).count())).toBe(0)
      yield* checkView(dashboard, shoot, "after the delete")
    }))

  it.scoped("a Read Only session sees the overview and webhooks without any control that changes them", () =>
    Effect.gen(function*() {
      const shoot = dashboardScreenshots("read-only")
      const receiver = yield* WebhookReceiver
      receiver.script("/read-only", [{ status: 503 }])
      const { client, projectId } = yield* freshProject
      const endpoint = yield* client.webhooks.create_webhook({
        payload: { url: receiver.url("/read-only"), events: ["account.created"], description: "Billing sync" }
      })
      yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          (page) => page.data.find((delivery) => delivery.attempts > 0)
        ),
        "the failed attempt"
      )
      const { key } = yield* keyFor(projectId, "read_only")
      const dashboard = yield* signedIn(key)
      const { page } = dashboard
      yield* promise(() => heading(page, "Overview").waitFor())
      yield* promise(() => page.getByRole("region", { name: "Webhook endpoints failing" }).getByRole("link", { name: endpoint.url }).waitFor())
      yield* checkView(dashboard, shoot, "overview")

      yield* openSection(page, "Webhooks")
      yield* promise(() => page.getByRole("link", { name: endpoint.url }).waitFor())
      expect(yield* promise(() => page.getByRole("form", { name: "Add a webhook endpoint" }).count())).toBe(0)
      expect(yield* promise(() => page.getByRole("button", { name: "Add endpoint" }).count())).toBe(0)
      yield* checkView(dashboard, shoot, "webhooks")

      yield* promise(() => page.getByRole("link", { name: endpoint.url }).click())
      yield* promise(() => heading(page, "Webhook endpoint").waitFor())
      const row = page.getByRole("table", { name: "Deliveries to this endpoint, newest first" }).getByRole("row").filter({ hasText: "HTTP 503" })
      yield* promise(() => row.waitFor())
      expect(yield* text(row)).toMatch(/^webhook\.test Pending 1 HTTP 503 /)
      for (const name of ["Send test event", "Disable", "Enable", "Rotate secret", "Delete", "Edit settings", "Retry"]) {
        expect(yield* promise(() => page.getByRole("button", { name }).count()), name).toBe(0)
      }
      // the Status filter is the one control: it reads, it does not change anything
      expect(yield* promise(() => page.locator("main").getByRole("button").count())).toBe(0)
      yield* checkView(dashboard, shoot, "endpoint")
    }))
})
