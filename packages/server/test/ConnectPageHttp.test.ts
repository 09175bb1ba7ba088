import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { connectPageHeaders } from "../src/edge/connectPage/connectPageHeaders.js"
import { connectResultPage } from "../src/edge/connectPage/connectResultPage.js"
import { monogramColour, monogramLetters } from "../src/edge/connectPage/monogramIcon.js"
import { parseFrameOrigin } from "../src/edge/connectPage/parseFrameOrigin.js"
import { ProjectsRepo } from "../src/features/projects/ProjectsRepo.js"
import { freshProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { send } from "./support/Wire.js"

/*
 * The connect page as HTTP: what /connect, its assets and icons answer and with which
 * headers, for usable and unusable links; the OAuth2 result page; origins. The page itself
 * in a browser: ConnectPage.test.ts.
 */

const owner = { origin_owner_id: "customer-1", origin_owner_name: "Acme Inc" }

const CSP_NO_FRAMING = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

const get = (path: string, headers: Record<string, string> = {}) =>
  send(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))

const setSession = (token: string, change: "expired" | "completed" | "failed") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { hashConnectToken } = yield* Effect.promise(() => import("../src/features/connectSessions/ConnectSessions.js"))
    const hash = hashConnectToken(token)
    if (change === "expired") {
      yield* sql`UPDATE connect_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${hash}`
    } else {
      yield* sql`UPDATE connect_sessions SET status = ${change} WHERE token_hash = ${hash}`
    }
  }).pipe(Effect.orDie)

const newSession = Effect.gen(function*() {
  const project = yield* freshProject
  const session = yield* project.client.connect_sessions.create_connect_session({ payload: owner })
  return { ...project, session }
})

/** The path and query of an auth_link_url, to request it from the test server. */
const pathOf = (authLinkUrl: string) => {
  const url = new URL(authLinkUrl)
  return `${url.pathname}${url.search}`
}

const dataBlock = (html: string) => {
  const found = /<script type="application\/json" id="switchyard-connect-data">([^<]*)<\/script>/.exec(html)
  expect(found).not.toBeNull()
  return JSON.parse(found![1]!) as Record<string, unknown>
}

/** Every `<script>` element of the page: only the data block and the page's own script file. */
const scriptsOf = (html: string) => [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!.trim())

layer(TestServer(), { excludeTestServices: true })("the connect page over HTTP", (it) => {
  it.effect("GET /connect with a usable token: the shell, strict headers, no token in the HTML", () =>
    Effect.gen(function*() {
      const { session } = yield* newSession
      const response = yield* get(pathOf(session.auth_link_url))
      expect(response.status).toBe(200)
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(response.headers["content-security-policy"]).toBe(CSP_NO_FRAMING)
      expect(response.headers["x-frame-options"]).toBe("DENY")
      expect(response.headers["x-content-type-options"]).toBe("nosniff")
      expect(response.headers["referrer-policy"]).toBe("no-referrer")
      expect(response.headers["cache-control"]).toBe("no-store")
      expect(response.text).not.toContain(session.token)
      expect(response.text).not.toMatch(/\sstyle=|<style/)
      expect(scriptsOf(response.text)).toEqual([
        `type="application/json" id="switchyard-connect-data"`,
        `src="connect/assets/connect.js" defer`
      ])
      expect(response.text).toContain(`<link rel="stylesheet" href="connect/assets/connect.css">`)
      expect(dataBlock(response.text)).toEqual({ mode: "connect", frameOrigins: [] })
    }))

  it.effect("frame-ancestors lists the project's origins, and only valid ones", () =>
    Effect.gen(function*() {
      const { projectId, session } = yield* newSession
      const projects = yield* ProjectsRepo
      yield* projects.setConnectFrameOrigins(projectId, [
        "https://app.example.com",
        "http://127.0.0.1:3000",
        "https://evil.example; script-src *"
      ])
      const response = yield* get(pathOf(session.auth_link_url))
      expect(response.status).toBe(200)
      expect(response.headers["content-security-policy"]).toMatch(
        /; frame-ancestors https:\/\/app\.example\.com http:\/\/127\.0\.0\.1:3000$/
      )
      expect(response.headers["x-frame-options"]).toBeUndefined()
      expect(dataBlock(response.text).frameOrigins).toEqual([
        "https://app.example.com",
        "http://127.0.0.1:3000"
      ])
    }))

  it.effect("an unknown, missing, expired, used or failed link answers an error page with 401 or 410", () =>
    Effect.gen(function*() {
      const unknown = yield* get("/connect?token=not-a-token")
      expect(unknown.status).toBe(401)
      expect(unknown.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(unknown.headers["content-security-policy"]).toBe(CSP_NO_FRAMING)
      expect(unknown.text).toContain("<h1 tabindex=\"-1\">This link is not valid</h1>")
      expect(unknown.text).not.toContain("not-a-token")
      expect(dataBlock(unknown.text)).toMatchObject({ mode: "error" })

      const missing = yield* get("/connect")
      expect(missing.status).toBe(401)
      expect(missing.text).toContain("This link is incomplete")
      expect((yield* get(`/connect?token=${"x".repeat(500)}`)).status).toBe(401)

      for (
        const [change, heading] of [
          ["expired", "This link has expired"],
          ["completed", "This link was already used"],
          ["failed", "This link can no longer be used"]
        ] as const
      ) {
        const { projectId, session } = yield* newSession
        yield* (yield* ProjectsRepo).setConnectFrameOrigins(projectId, ["https://app.example.com"])
        yield* setSession(session.token, change)
        const gone = yield* get(pathOf(session.auth_link_url))
        expect({ change, status: gone.status }).toEqual({ change, status: 410 })
        expect(gone.text).toContain(heading)
        expect(gone.text).toContain("role=\"alert\"")
        // the project is known: its embedding page may show the error in its frame
        expect(gone.headers["content-security-policy"]).toMatch(/frame-ancestors https:\/\/app\.example\.com$/)
        expect(gone.headers["cache-control"]).toBe("no-store")
      }
    }))

  it.effect("serves the script and style as files, revalidated by ETag, with nosniff", () =>
    Effect.gen(function*() {
      for (
        const [file, type] of [
          ["connect.js", "text/javascript; charset=utf-8"],
          ["connect.css", "text/css; charset=utf-8"]
        ] as const
      ) {
        const asset = yield* get(`/connect/assets/${file}`)
        expect({ file, status: asset.status }).toEqual({ file, status: 200 })
        expect(asset.headers["content-type"]).toBe(type)
        expect(asset.headers["x-content-type-options"]).toBe("nosniff")
        expect(asset.headers["cache-control"]).toBe("no-cache")
        expect(asset.text.length).toBeGreaterThan(1000)
        const etag = asset.headers["etag"]!
        expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
        const again = yield* get(`/connect/assets/${file}`, { "if-none-match": etag })
        expect(again.status).toBe(304)
        expect(again.text).toBe("")
      }
      const css = yield* get("/connect/assets/connect.css")
      // nothing from elsewhere: no font, image or import by URL
      expect(css.text).not.toMatch(/url\(|@import|@font-face/)
      for (const path of ["/connect/assets/other.js", "/connect/assets/..%2Fconnect.js", "/connect/assets/"]) {
        expect({ path, status: (yield* get(path)).status }).toEqual({ path, status: 404 })
      }
    }))

  it.effect("answers /favicon.ico with Switchyard's icon, kept a day, and the connect page and /docs link it", () =>
    Effect.gen(function*() {
      const svg = Fs.readFileSync(Path.join(import.meta.dirname, "../src/edge/connectPage/assets/favicon.svg"), "utf8")
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
      const icon = yield* get("/favicon.ico")
      expect({ status: icon.status, type: icon.headers["content-type"], body: icon.text })
        .toEqual({ status: 200, type: "image/svg+xml", body: svg })
      expect(icon.headers["cache-control"]).toBe("public, max-age=86400")
      expect(icon.headers["x-content-type-options"]).toBe("nosniff")

      // The connect page links it among its assets (relative, as they are: a path prefix keeps working).
      const { session } = yield* newSession
      const page = yield* get(pathOf(session.auth_link_url))
      expect(page.text).toContain(`<link rel="icon" type="image/svg+xml" href="connect/assets/favicon.svg">`)
      const linked = yield* get("/connect/assets/favicon.svg")
      expect({ status: linked.status, type: linked.headers["content-type"], body: linked.text })
        .toEqual({ status: 200, type: "image/svg+xml", body: svg })
      // The docs page hands it to the API reference, relative to /docs.
      const docs = yield* get("/docs")
      expect(docs.text).toContain(`"favicon":"favicon.ico"`)
    }))

  it.effect("draws a connector's icon: its initials on a colour from its key, no third-party URL", () =>
    Effect.gen(function*() {
      const icon = yield* get("/connect/icons/greenhouse.svg")
      expect(icon.status).toBe(200)
      expect(icon.headers["content-type"]).toBe("image/svg+xml; charset=utf-8")
      expect(icon.headers["x-content-type-options"]).toBe("nosniff")
      expect(icon.headers["content-security-policy"]).toBe("default-src 'none'")
      expect(icon.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
      expect(icon.text).toContain(`fill="${monogramColour("greenhouse")}"`)
      expect(icon.text).toMatch(/>G<\/text><\/svg>/)
      expect(icon.text).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/)

      const named = yield* get("/connect/icons/talentlms.svg?name=Talent%20LMS")
      expect(named.text).toMatch(/>TL<\/text>/)
      const hostile = yield* get(`/connect/icons/x.svg?name=${encodeURIComponent("<script>alert(1)</script>")}`)
      expect(hostile.status).toBe(200)
      expect(hostile.text).not.toContain("<script")
      expect(hostile.text).toMatch(/>S<\/text>/)
      for (const path of ["/connect/icons/Greenhouse.svg", "/connect/icons/greenhouse.png", "/connect/icons/a%2Fb.svg"]) {
        expect({ path, status: (yield* get(path)).status }).toEqual({ path, status: 404 })
      }
    }))
})

describe("connectResultPage", () => {
  it("carries a connected result in a data block the page script reads, with the page headers", () => {
    const page = connectResultPage({
      status: "connected",
      accountId: "acc-1",
      connectorKey: "lever",
      redirectUrl: "https://app.example.com/done?account_id=acc-1",
      frameOrigins: ["https://app.example.com"]
    })
    expect(page.headers).toEqual(connectPageHeaders(["https://app.example.com"]))
    expect(page.headers["content-security-policy"]).toMatch(/frame-ancestors https:\/\/app\.example\.com$/)
    expect(dataBlock(page.html)).toEqual({
      mode: "result",
      frameOrigins: ["https://app.example.com"],
      result: {
        status: "connected",
        account_id: "acc-1",
        connector_key: "lever",
        redirect_url: "https://app.example.com/done?account_id=acc-1"
      }
    })
    // served at /connect/oauth2/{connector_key}/callback: the assets two levels up
    expect(scriptsOf(page.html)).toContain(`src="../../assets/connect.js" defer`)
    expect(page.html).toContain(`href="../../assets/connect.css"`)
  })

  it("escapes an error message so it can neither close the data block nor become markup", () => {
    const message = "</script><script>alert(1)</script><!-- & \u2028"
    const page = connectResultPage({ status: "error", message, connectorKey: null, frameOrigins: [] })
    expect(page.html.match(/<script\b/g)).toHaveLength(2)
    expect(page.html).not.toContain("<!--")
    expect(dataBlock(page.html)).toEqual({
      mode: "result",
      frameOrigins: [],
      result: { status: "error", message, connector_key: null }
    })
    expect(page.html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- &amp;")
    expect(page.headers["content-security-policy"]).toBe(CSP_NO_FRAMING)
  })
})

describe("frame origins", () => {
  it("takes scheme, host and port, normalized; refuses paths, queries, credentials, wildcards and other schemes", () => {
    const accepted: ReadonlyArray<readonly [string, string]> = [
      ["https://app.example.com", "https://app.example.com"],
      ["https://App.Example.COM:443/", "https://app.example.com"],
      ["http://localhost:3000", "http://localhost:3000"],
      ["  https://app.example.com:8443  ", "https://app.example.com:8443"],
      ["http://[::1]:8080", "http://[::1]:8080"],
      ["https://bücher.example", "https://xn--bcher-kva.example"]
    ]
    for (const [given, origin] of accepted) expect({ given, parsed: parseFrameOrigin(given) }).toEqual({ given, parsed: Either.right(origin) })
    for (
      const given of [
        "app.example.com",
        "https://app.example.com/path",
        "https://app.example.com/?x=1",
        "https://app.example.com#top",
        "https://user:pw@app.example.com",
        "https://*.example.com",
        "*",
        "ftp://files.example.com",
        "javascript:alert(1)",
        "'self'",
        ""
      ]
    ) expect({ given, left: Either.isLeft(parseFrameOrigin(given)) }).toEqual({ given, left: true })
  })

  it("monogram letters: the initials of two words, else the first letter", () => {
    expect(monogramLetters("Greenhouse")).toBe("G")
    expect(monogramLetters("Talent LMS")).toBe("TL")
    expect(monogramLetters("bamboo_hr")).toBe("BH")
    expect(monogramLetters("  ")).toBe("?")
    expect(monogramLetters("élan vital")).toBe("ÉV")
  })
})
