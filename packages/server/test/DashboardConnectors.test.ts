import { expect, layer } from "@effect/vitest"
import { recordsOf } from "@switchyard/client"
import { Effect, Layer } from "effect"
import type { Locator, Page } from "playwright-core"
import { BrowserLive, ConnectTestServer } from "./support/browser.js"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { dashboardScreenshots, openSection, seriousAccessibilityViolations, signedInDashboard as signedIn, viewHeading as heading } from "./support/dashboard.js"
import { freshProject, keyFor } from "./support/Fixtures.js"

/*
 * The dashboard's Connectors and Connector profiles views in Chromium, signed in as a person
 * is: the catalog and its filters, a connector and an action's inputs, a custom connector's
 * upload (refused with its problems at their line and column, then accepted), a profile
 * created, edited and deleted, and what a Read Only session is not offered. Each view is
 * audited with axe and photographed (packages/server/test-artifacts/dashboard/).
 */

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** The view is accessible, and the page's CSP refused nothing on the way. */
const audit = (page: Page, cspViolations: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    expect(yield* seriousAccessibilityViolations(page)).toEqual([])
    expect(cspViolations).toEqual([])
  })


/** The text of each body row's first cell: what a table lists. */
const firstCells = (table: Locator) => table.locator("tbody tr td:first-child").allInnerTexts()

/** Waits until a text area or input holds `expected` (a file is read into the editor asynchronously). */
const waitForValue = (page: Page, field: Locator, expected: string) =>
  promise(async () => {
    const handle = await field.elementHandle()
    await page.waitForFunction(
      ([element, value]) => (element as unknown as { value: string }).value === value,
      [handle, expected] as const
    )
  })

layer(Layer.mergeAll(ConnectTestServer(), BrowserLive), { excludeTestServices: true })(
  "the dashboard's connectors and connector profiles",
  (it) => {
    it.scoped("the catalog lists the built-in connectors, filters by category and search, and opens a connector and an action's inputs", () =>
      Effect.gen(function*() {
        const shot = dashboardScreenshots("connectors catalog")
        const { key, client } = yield* freshProject
        const { page, cspViolations } = yield* signedIn(key)
        yield* openSection(page, "Connectors")
        const catalog = page.getByRole("table")
        const builtins = recordsOf(yield* client.connectors.list_connectors({ urlParams: {} }))
        expect(builtins.length).toBeGreaterThanOrEqual(20)
        const titles = yield* promise(() => firstCells(catalog))
        expect(titles).toHaveLength(builtins.length)
        expect(titles).toEqual([...builtins.map((connector) => connector.title)].sort((a, b) => a.localeCompare(b)))
        expect(yield* promise(() => page.getByRole("status").filter({ hasText: "connectors" }).innerText())).toBe(`${builtins.length} connectors`)
        yield* shot(page, "catalog")
        yield* audit(page, cspViolations)

        // a category: exactly the connectors the API lists in it, and the filter in the URL
        const lms = builtins.filter((connector) => connector.categories.includes("lms")).map((connector) => connector.title).sort((a, b) => a.localeCompare(b))
        expect(lms.length).toBeGreaterThan(0)
        yield* promise(() => page.getByLabel("Category").selectOption("lms"))
        yield* promise(() => page.getByRole("status").filter({ hasText: `${lms.length} of ${builtins.length} connectors` }).waitFor())
        expect(yield* promise(() => firstCells(catalog))).toEqual(lms)
        expect(yield* promise(() => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash))).toBe("#/connectors?category=lms")
        yield* shot(page, "category lms")

        // search within it, then a search that finds nothing says what to do
        yield* promise(() => page.getByLabel("Category").selectOption(""))
        yield* promise(() => page.getByLabel("Search").fill("greenh"))
        yield* promise(() => page.getByRole("status").filter({ hasText: `1 of ${builtins.length} connectors` }).waitFor())
        expect(yield* promise(() => firstCells(catalog))).toEqual(["Greenhouse"])
        yield* promise(() => page.getByLabel("Search").fill("no such connector"))
        yield* promise(() => page.getByText("No connector matches these filters").waitFor())
        yield* shot(page, "search finds nothing")
        yield* audit(page, cspViolations)
        yield* promise(() => page.getByRole("link", { name: "show every connector" }).click())
        yield* promise(() => page.getByRole("status").filter({ hasText: `${builtins.length} connectors` }).waitFor())

        // a connector: its facts, versions (newest first), changelog and actions
        yield* promise(() => page.getByRole("link", { name: "Greenhouse", exact: true }).click())
        yield* promise(() => heading(page, "Greenhouse").waitFor())
        const greenhouse = yield* client.connectors.get_connector({ path: { id: "greenhouse" }, urlParams: { expand: ["actions", "changelog"] } })
        const versions = yield* client.connectors.list_connector_versions({ path: { id: "greenhouse" } })
        const versionTable = page.getByRole("table", { name: "Versions of Greenhouse, newest first" })
        expect(yield* promise(() => firstCells(versionTable))).toEqual(
          versions.map((version) => version.version === greenhouse.version ? `${version.version} (shown)` : version.version)
        )
        const changelog = page.locator(".changelog > li")
        expect(yield* promise(() => changelog.count())).toBe(greenhouse.changelog!.length)
        const actionTable = page.getByRole("table", { name: "Actions of Greenhouse" })
        expect(yield* promise(() => actionTable.locator("tbody tr").count())).toBe(greenhouse.actions!.actions.length)
        yield* shot(page, "greenhouse")
        yield* audit(page, cspViolations)
        // the actions push the rest far down: the view's own links reach each part and focus its heading
        yield* promise(() => page.getByRole("navigation", { name: "On this page" }).getByRole("button", { name: `Versions (${versions.length})` }).click())
        expect(yield* promise(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent))).toBe("Versions")

        // an action: its inputs as get_connector_action answers them
        const first = greenhouse.actions!.actions[0]!
        yield* promise(() => actionTable.getByRole("link", { name: first.label, exact: true }).click())
        yield* promise(() => heading(page, first.label).waitFor())
        const action = yield* client.connectors.get_connector_action({ path: { id: "greenhouse", actionId: first.id }, urlParams: {} })
        expect(action.inputs.length).toBeGreaterThan(0)
        const inputs = page.getByRole("table", { name: `Inputs of ${first.label}` })
        expect(yield* promise(() => firstCells(inputs))).toEqual(action.inputs.map((input) => input.name))
        const required = action.inputs.filter((input) => input.required).length
        expect(yield* promise(() => inputs.getByRole("cell", { name: "Required", exact: true }).count())).toBe(required)
        yield* shot(page, "action inputs")
        yield* audit(page, cspViolations)
        yield* promise(() => page.getByRole("link", { name: "← Connector greenhouse" }).click())
        yield* promise(() => heading(page, "Greenhouse").waitFor())
      }))

    it.scoped("uploading a broken YAML shows each problem at its line and column; a valid one joins the catalog and can be deleted", () =>
      Effect.gen(function*() {
        const shot = dashboardScreenshots("connectors upload")
        const { key } = yield* freshProject
        const { page, cspViolations } = yield* signedIn(key)
        yield* openSection(page, "Connectors")
        // the form takes focus when it opens, and gives it back to its button when it closes
        const hasFocus = (locator: Locator) => promise(() => locator.and(page.locator(":focus")).waitFor())
        const opener = page.getByRole("button", { name: "Upload a custom connector" })
        const formHeading = page.getByRole("heading", { level: 2, name: "Upload a custom connector" })
        yield* promise(() => opener.click())
        const form = page.getByRole("form", { name: "Upload a custom connector" })
        yield* hasFocus(formHeading)
        yield* promise(() => form.getByRole("button", { name: "Close" }).press("Enter"))
        yield* hasFocus(opener)
        yield* promise(() => page.keyboard.press("Enter"))
        yield* hasFocus(formHeading)
        yield* shot(page, "upload form")
        yield* audit(page, cspViolations)

        // two problems the test locates itself: a verification level and an action type that do not exist
        const broken = connectorYaml({ key: "dash-broken", version: "1.0.0", verification: ["level: verified"] })
          .replace("actionType: list", "actionType: sideways")
        const lines = broken.split("\n")
        const where = (text: string, value: string) => {
          const index = lines.findIndex((line) => line.includes(text))
          return { line: index + 1, column: lines[index]!.indexOf(value) + 1, text: lines[index]! }
        }
        const level = where("level: verified", "verified")
        const actionType = where("actionType: sideways", "sideways")
        yield* promise(() => form.getByLabel("YAML file").setInputFiles({ name: "broken.yaml", mimeType: "application/yaml", buffer: Buffer.from(broken) }))
        const editor = form.getByLabel("Connector YAML")
        yield* waitForValue(page, editor, broken)
        yield* promise(() => form.getByRole("button", { name: "Upload", exact: true }).click())
        const problems = form.getByRole("alert")
        yield* promise(() => problems.getByText("The connector was not uploaded.").waitFor())
        const items = problems.locator("ol > li")
        const listed = yield* promise(() => items.locator(".yaml-issue").allInnerTexts())
        expect(listed).toHaveLength(2)
        expect(listed[0]).toMatch(new RegExp(`^line ${level.line}, column ${level.column}: info\\.verification\\.level: `))
        expect(listed[1]).toMatch(new RegExp(`^line ${actionType.line}, column ${actionType.column}: actions\\[0\\]\\.actionType: expected one of `))
        // each excerpt marks the problem's own line, and its caret sits under the column
        for (const [index, problem] of [level, actionType].entries()) {
          const marked = items.nth(index).locator(".yaml-line-marked")
          expect(yield* promise(() => marked.getAttribute("data-line"))).toBe(String(problem.line))
          const [text, caret] = (yield* promise(() => marked.innerText())).split("\n")
          expect(text).toBe(`›${String(problem.line).padStart(4)} │ ${problem.text}`)
          expect(caret!.indexOf("^") - "      │ ".length + 1).toBe(problem.column)
        }
        yield* shot(page, "upload refused at its lines")
        yield* audit(page, cspViolations)

        // the button beside a problem selects its line in the editor, by keyboard as by mouse
        yield* promise(() => problems.getByRole("button", { name: `Select line ${level.line} in the editor` }).focus())
        yield* promise(() => page.keyboard.press("Enter"))
        const selection = yield* promise(() =>
          editor.evaluate((element) => {
            const area = element as unknown as { value: string; selectionStart: number; selectionEnd: number }
            return { focused: element === (element.ownerDocument as unknown as { activeElement: unknown }).activeElement, text: area.value.slice(area.selectionStart, area.selectionEnd) }
          })
        )
        expect(selection).toEqual({ focused: true, text: level.text })

        // pasted rather than read from a file: a valid connector is registered and linked
        const valid = connectorYaml({ key: "dash-custom", version: "1.0.0", title: "Dashboard Custom", category: "hris" })
        yield* promise(() => editor.fill(valid))
        yield* promise(() => form.getByRole("button", { name: "Upload", exact: true }).click())
        const uploaded = form.getByRole("status").filter({ hasText: "Uploaded" })
        yield* promise(() => uploaded.waitFor())
        expect(yield* promise(() => uploaded.innerText())).toBe("Uploaded Dashboard Custom 1.0.0 (dash-custom). It is in the catalog below.")
        const catalog = page.getByRole("table", { name: "Connectors, by title" })
        const row = catalog.getByRole("row").filter({ has: page.getByRole("link", { name: "Dashboard Custom", exact: true }) })
        yield* promise(() => row.waitFor())
        expect(yield* promise(() => row.innerText())).toMatch(/Dashboard Custom\s+Custom\s+dash-custom\s+1\.0\.0\s+HRIS\s+API token\s+Community/)
        yield* shot(page, "uploaded")
        yield* audit(page, cspViolations)

        // its page, then deleted after a confirmation: the catalog no longer has it
        yield* promise(() => uploaded.getByRole("link", { name: "Dashboard Custom 1.0.0" }).click())
        yield* promise(() => heading(page, "Dashboard Custom").waitFor())
        yield* promise(() => page.getByRole("button", { name: "Delete 1.0.0" }).click())
        const dialog = page.getByRole("dialog", { name: "Delete dash-custom 1.0.0?" })
        yield* promise(() => dialog.waitFor())
        yield* shot(page, "confirm delete")
        yield* audit(page, cspViolations)
        yield* promise(() => dialog.getByRole("button", { name: "Delete version" }).click())
        yield* promise(() => heading(page, "Connectors").waitFor())
        yield* promise(() => page.getByRole("link", { name: "Greenhouse", exact: true }).waitFor())
        expect(yield* promise(() => page.getByRole("link", { name: "Dashboard Custom", exact: true }).count())).toBe(0)
      }))

    it.scoped("a connector profile is created, its enabled actions and settings changed and kept across a reload, then deleted", () =>
      Effect.gen(function*() {
        const shot = dashboardScreenshots("connector profiles")
        const { key, client } = yield* freshProject
        yield* client.connectors.create_connector({
          urlParams: {},
          payload: { yaml: connectorYaml({ key: "dash-things", version: "1.0.0", title: "Things", actions: ["list_things", "get_thing", "list_widgets"] }) }
        })
        const { page, cspViolations } = yield* signedIn(key)
        yield* openSection(page, "Connector profiles")
        yield* promise(() => page.getByText("No connector profiles yet").waitFor())
        yield* shot(page, "no profiles")
        yield* audit(page, cspViolations)

        // the form says what is missing, beside the field, before anything is sent
        yield* promise(() => page.getByRole("button", { name: "Create a profile" }).click())
        const form = page.getByRole("form", { name: "Create a connector profile" })
        yield* promise(() => form.getByRole("button", { name: "Create profile" }).click())
        yield* promise(() => form.getByText("Choose the connector the profile is for.").waitFor())
        yield* promise(() => form.getByLabel("Connector", { exact: true }).selectOption("dash-things"))
        yield* promise(() => form.getByLabel("Label", { exact: true }).fill("Things for tests"))
        // settings as JSON that does not parse: refused in words
        yield* promise(() => form.getByRole("radio", { name: "JSON" }).check())
        yield* promise(() => form.getByLabel("Settings as a JSON object").fill("{\"base_url\": "))
        yield* promise(() => form.getByRole("button", { name: "Create profile" }).click())
        yield* promise(() => form.getByRole("alert").filter({ hasText: "The settings are not valid JSON" }).waitFor())
        yield* shot(page, "create with invalid json")
        yield* audit(page, cspViolations)
        // nor can it turn into fields: the JSON stays, with the reason
        yield* promise(() => form.getByRole("radio", { name: "Name and value fields" }).click())
        yield* promise(() => form.getByRole("radio", { name: "JSON", checked: true }).waitFor())
        expect(yield* promise(() => form.getByLabel("Settings as a JSON object").inputValue())).toBe("{\"base_url\": ")
        yield* promise(() => form.getByLabel("Settings as a JSON object").fill("{\"base_url\": \"https://things.example.com\"}"))
        yield* promise(() => form.getByRole("radio", { name: "Name and value fields" }).check())
        expect(yield* promise(() => form.getByLabel("Name of setting 1").inputValue())).toBe("base_url")
        expect(yield* promise(() => form.getByLabel("Value of setting 1").inputValue())).toBe("https://things.example.com")
        yield* promise(() => form.getByRole("button", { name: "Create profile" }).click())

        // its page: every action enabled, the setting kept
        yield* promise(() => heading(page, "Things for tests").waitFor())
        const checkbox = (id: string) => page.getByRole("checkbox", { name: new RegExp(`\\b${id}$`) })
        for (const id of ["list_things", "get_thing", "list_widgets"]) expect(yield* promise(() => checkbox(id).isChecked())).toBe(true)
        yield* shot(page, "created")
        yield* audit(page, cspViolations)

        // one action off, a second setting, saved
        yield* promise(() => checkbox("list_widgets").uncheck())
        yield* promise(() => page.getByRole("button", { name: "Add a setting" }).click())
        yield* promise(() => page.getByLabel("Name of setting 2").fill("region"))
        yield* promise(() => page.getByLabel("Value of setting 2").fill("eu"))
        yield* promise(() => page.getByRole("button", { name: "Save changes" }).click())
        yield* promise(() => page.getByRole("status").filter({ hasText: "Saved at" }).waitFor())
        yield* promise(() => page.getByText("2 of 3", { exact: true }).waitFor())
        yield* shot(page, "saved")

        // what the server stored, and the same view after a reload
        const stored = recordsOf(yield* client.connector_profiles.list_connector_profiles({ urlParams: {} }))
        expect(stored).toHaveLength(1)
        expect(stored[0]).toMatchObject({
          label: "Things for tests",
          enabled_actions: ["list_things", "get_thing"],
          account_settings: { base_url: "https://things.example.com", region: "eu" }
        })
        yield* promise(() => page.reload())
        yield* promise(() => heading(page, "Things for tests").waitFor())
        expect(yield* promise(() => checkbox("list_things").isChecked())).toBe(true)
        expect(yield* promise(() => checkbox("get_thing").isChecked())).toBe(true)
        expect(yield* promise(() => checkbox("list_widgets").isChecked())).toBe(false)
        expect(yield* promise(() => page.getByLabel("Name of setting 2").inputValue())).toBe("region")
        expect(yield* promise(() => page.getByLabel("Value of setting 2").inputValue())).toBe("eu")

        // the list shows it with its counts
        yield* openSection(page, "Connector profiles")
        const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Things for tests" }) })
        expect(yield* promise(() => row.innerText())).toMatch(/Things for tests\s+Things dash-things\s+1\.0\.0 \(latest\)\s+2\s+0\s+Active/)
        yield* shot(page, "list")
        yield* audit(page, cspViolations)

        // deleted after a confirmation
        yield* promise(() => page.getByRole("link", { name: "Things for tests" }).click())
        yield* promise(() => page.getByRole("button", { name: "Delete profile" }).click())
        const dialog = page.getByRole("dialog", { name: "Delete the profile “Things for tests”?" })
        yield* promise(() => dialog.waitFor())
        yield* audit(page, cspViolations)
        yield* promise(() => dialog.getByRole("button", { name: "Delete profile" }).click())
        yield* promise(() => page.getByText("No connector profiles yet").waitFor())
        expect(recordsOf(yield* client.connector_profiles.list_connector_profiles({ urlParams: {} }))).toEqual([])
      }))

    it.scoped("a Read Only session is offered no upload, create, edit or delete control", () =>
      Effect.gen(function*() {
        const shot = dashboardScreenshots("connectors read only")
        const { projectId, client } = yield* freshProject
        yield* client.connectors.create_connector({
          urlParams: {},
          payload: { yaml: connectorYaml({ key: "dash-readonly", version: "1.0.0", title: "Read Only Things" }) }
        })
        const profile = yield* client.connector_profiles.create_connector_profile({
          urlParams: {},
          payload: { connector_key: "dash-readonly", label: "Looked at", account_settings: { base_url: "https://things.example.com" } }
        })
        const { key } = yield* keyFor(projectId, "read_only")
        const { page, cspViolations } = yield* signedIn(key)
        const writeControls = (scope: Locator) =>
          promise(async () => ({
            buttons: await scope.getByRole("button").filter({ hasText: /Upload|Create|Delete|Save|Add|Remove|Enable|Disable/ }).count(),
            fields: await scope.locator("input:not([type=search]), textarea").count()
          }))

        yield* openSection(page, "Connectors")
        yield* promise(() => page.getByRole("link", { name: "Read Only Things", exact: true }).waitFor())
        expect(yield* writeControls(page.locator("main"))).toEqual({ buttons: 0, fields: 0 })
        yield* shot(page, "catalog")
        yield* audit(page, cspViolations)

        yield* promise(() => page.getByRole("link", { name: "Read Only Things", exact: true }).click())
        yield* promise(() => heading(page, "Read Only Things").waitFor())
        expect(yield* writeControls(page.locator("main"))).toEqual({ buttons: 0, fields: 0 })
        yield* shot(page, "custom connector")
        yield* audit(page, cspViolations)

        yield* openSection(page, "Connector profiles")
        yield* promise(() => page.getByRole("link", { name: "Looked at" }).waitFor())
        expect(yield* writeControls(page.locator("main"))).toEqual({ buttons: 0, fields: 0 })
        yield* promise(() => page.getByRole("link", { name: "Looked at" }).click())
        yield* promise(() => heading(page, "Looked at").waitFor())
        expect(yield* writeControls(page.locator("main"))).toEqual({ buttons: 0, fields: 0 })
        expect(yield* promise(() => page.getByRole("checkbox").count())).toBe(0)
        // what it would edit, shown as text
        yield* promise(() => page.getByText("https://things.example.com").waitFor())
        expect(profile.enabled_actions.length).toBeGreaterThan(0)
        expect(yield* promise(() => page.locator(".action-states li").count())).toBe(profile.enabled_actions.length)
        yield* shot(page, "profile")
        yield* audit(page, cspViolations)
      }))
  }
)
