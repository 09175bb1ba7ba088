import { Effect } from "effect"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import type { Browser, Page } from "playwright-core"
import { expect } from "@effect/vitest"
import { ConnectServerUrl, TestBrowser } from "./browser.js"

/*
 * The dashboard's browser tests: a 1280×800 Chromium page per person, signed in by pasting
 * a key as a person does; an accessibility audit with axe-core; a record of what the page's
 * Content-Security-Policy refused (which must stay empty); screenshots of every view under
 * packages/server/test-artifacts/dashboard/.
 */

const HANG_MS = 120_000

export const DASHBOARD_SCREENSHOTS = Path.resolve(import.meta.dirname, "../../test-artifacts/dashboard")

export interface DashboardPage {
  readonly page: Page
  /** Console errors about Content-Security-Policy (a refused script, style or request). */
  readonly cspViolations: Array<string>
}

/** A fresh browser context (its own cookies) and page at the size of a laptop screen. */
export const openDashboard = (baseUrl: string) =>
  Effect.gen(function*() {
    const browser: Browser = yield* TestBrowser
    const context = yield* Effect.acquireRelease(
      Effect.promise(() => browser.newContext({ viewport: { width: 1280, height: 800 } })),
      (context) => Effect.promise(() => context.close())
    )
    context.setDefaultTimeout(HANG_MS)
    context.setDefaultNavigationTimeout(HANG_MS)
    const page = yield* Effect.promise(() => context.newPage())
    const cspViolations: Array<string> = []
    page.on("console", (message) => {
      if (message.type() === "error" && /Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text())
    })
    yield* Effect.promise(() => page.goto(`${baseUrl}/dashboard`))
    return { page, cspViolations } satisfies DashboardPage
  })

/** Signs in by pasting `key` and waits for the signed-in view (its section navigation). */
export const signIn = (page: Page, key: string) =>
  Effect.promise(async () => {
    await page.getByLabel("API key", { exact: true }).fill(key)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("navigation", { name: "Sections" }).waitFor()
  })

/** Opens a section from the navigation and waits for its heading. */
export const openSection = (page: Page, title: string, heading: string = title) =>
  Effect.promise(async () => {
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: title, exact: true }).click()
    await page.getByRole("heading", { level: 1, name: heading, exact: true }).waitFor()
  })

const axeSource = Fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/**
 * The page's serious and critical accessibility violations (axe-core's WCAG 2.1 A and AA rules).
 * axe is evaluated through the DevTools protocol, which the page's CSP does not govern, so the
 * page's own policy stays strict for the test.
 */
export const seriousAccessibilityViolations = (page: Page) =>
  Effect.promise(async (): Promise<ReadonlyArray<AxeViolation>> => {
    if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeSource)
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: Array<string> }> }> }> }
      }).axe
      const result = await axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } })
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(" "))
      }))
    })
    return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
  })

/** Numbered screenshots of one test's views: `<test>-01-<view>.png`, … */
export const dashboardScreenshots = (test: string) => {
  let step = 0
  Fs.mkdirSync(DASHBOARD_SCREENSHOTS, { recursive: true })
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60)
  return (page: Page, label: string) => {
    step++
    const file = Path.join(DASHBOARD_SCREENSHOTS, `${slug(test)}-${String(step).padStart(2, "0")}-${slug(label)}.png`)
    return Effect.promise(() => page.screenshot({ path: file, fullPage: true }))
  }
}

/** A person signed in with `key` in a browser context of their own, on the test server of ConnectTestServer. */
export const signedInDashboard = (key: string) =>
  Effect.gen(function*() {
    const dashboard = yield* openDashboard(yield* ConnectServerUrl)
    yield* signIn(dashboard.page, key)
    return dashboard
  })

/** A screenshot of the view; its serious accessibility violations and the CSP's refusals, which must be none. */
export const checkView = (dashboard: DashboardPage, shoot: ReturnType<typeof dashboardScreenshots>, label: string) =>
  Effect.gen(function*() {
    yield* shoot(dashboard.page, label)
    expect(yield* seriousAccessibilityViolations(dashboard.page), label).toEqual([])
    expect(dashboard.cspViolations, label).toEqual([])
  })

/** A view's title (its one h1): exact when a string. */
export const viewHeading = (page: Page, name: string | RegExp) =>
  page.getByRole("heading", { level: 1, name, exact: typeof name === "string" })
