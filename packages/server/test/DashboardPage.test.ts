import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Path from "node:path"
import * as Zlib from "node:zlib"
import { dashboardPageHeaders } from "../src/edge/dashboard/dashboardPage.js"
import { TestServer } from "./support/TestServer.js"
import { send } from "./support/Wire.js"

/*
 * The dashboard as HTTP: the page and its headers, its two assets (gzipped when asked, with
 * validators), and what other paths under /dashboard answer. The dashboard in a browser:
 * the Dashboard*.test.ts files.
 */

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

const built = Path.resolve(import.meta.dirname, "../../dashboard/dist")

const get = (path: string, headers: Record<string, string> = {}) =>
  send(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))

/** A GET over a plain socket, body bytes as sent (the platform's client may decode gzip for us). */
const rawGet = (path: string, headers: Record<string, string>) =>
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.async<{ status: number; headers: Http.IncomingHttpHeaders; body: Buffer }>((resume) => {
      const address = server.address as HttpServer.TcpAddress
      Http.get({ host: "127.0.0.1", port: address.port, path, headers, agent: false }, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => resume(Effect.succeed({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) })))
      }).on("error", (error) => resume(Effect.die(error)))
    }))

layer(TestServer(), { excludeTestServices: true })("the dashboard over HTTP", (it) => {
  it.effect("GET /dashboard is a page that runs only this server's script and style, cannot be framed and is not cached", () =>
    Effect.gen(function*() {
      const response = yield* get("/dashboard")
      expect(response.status).toBe(200)
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(response.headers["content-security-policy"]).toBe(CSP)
      expect(response.headers["x-frame-options"]).toBe("DENY")
      expect(response.headers["cache-control"]).toBe("no-store")
      expect(response.headers["referrer-policy"]).toBe("no-referrer")
      expect(dashboardPageHeaders["content-security-policy"]).toBe(CSP)
      // relative paths (a proxy may serve Switchyard under a prefix), no inline script or style
      expect(response.text).toContain(`<script type="module" src="dashboard/assets/dashboard.js"></script>`)
      expect(response.text).toContain(`<link rel="stylesheet" href="dashboard/assets/dashboard.css">`)
      expect(response.text).not.toMatch(/<script>|<style|style="/)
    }))

  it.effect("GET /dashboard/ sends the browser to /dashboard, where the page's relative asset paths resolve", () =>
    Effect.gen(function*() {
      const response = yield* get("/dashboard/")
      expect(response.status).toBe(308)
      expect(new URL(response.headers.location!, "http://host/dashboard/").pathname).toBe("/dashboard")
    }))

  it.effect("the assets are the dashboard's build, gzipped once for browsers that accept it, revalidated by ETag", () =>
    Effect.gen(function*() {
      for (const [file, type] of [["dashboard.js", "text/javascript; charset=utf-8"], ["dashboard.css", "text/css; charset=utf-8"]]) {
        const expected = Fs.readFileSync(Path.join(built, file))
        const gzipped = yield* rawGet(`/dashboard/assets/${file}`, { "accept-encoding": "gzip, deflate, br" })
        expect(gzipped.status).toBe(200)
        expect(gzipped.headers["content-type"]).toBe(type)
        expect(gzipped.headers["content-encoding"]).toBe("gzip")
        expect(gzipped.headers.vary).toBe("accept-encoding")
        expect(Zlib.gunzipSync(gzipped.body).equals(expected)).toBe(true)
        const plain = yield* rawGet(`/dashboard/assets/${file}`, {})
        expect(plain.headers["content-encoding"]).toBeUndefined()
        expect(plain.body.equals(expected)).toBe(true)
        const etag = plain.headers.etag!
        expect(gzipped.headers.etag).toBe(etag)
        const again = yield* rawGet(`/dashboard/assets/${file}`, { "if-none-match": etag })
        expect(again.status).toBe(304)
        expect(again.body.length).toBe(0)
      }
      // the budget the dashboard's build enforces, here as the browser receives it
      const script = yield* rawGet("/dashboard/assets/dashboard.js", { "accept-encoding": "gzip" })
      expect(script.body.length).toBeLessThan(300 * 1024)
    }))

  it.effect("an unknown asset is a 404 with the documented error body", () =>
    Effect.gen(function*() {
      const response = yield* get("/dashboard/assets/other.js")
      expect(response.status).toBe(404)
      expect(response.json).toMatchObject({ statusCode: 404, message: "No resource at GET /dashboard/assets/other.js" })
    }))
})
