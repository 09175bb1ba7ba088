import { describe, expect, it } from "vitest"
import type { Ctx } from "../src/http/ctx.js"
import { findRoute, guardedRoutes, route } from "../src/router.js"

const noop = (): void => undefined
// The router never reads the context; handlers here only record that they ran.
const fakeCtx = {} as Ctx

describe("router", () => {
  it("matches a pattern and decodes its parameters, one path segment each", () => {
    const routes = [route("GET", "/v1/applications/:id/notes/:note_id", noop)]
    expect(findRoute(routes, "GET", "/v1/applications/12/notes/a%20b")).toEqual({ route: routes[0], params: { id: "12", note_id: "a b" } })
    expect(findRoute(routes, "GET", "/v1/applications/1/2/notes/3")).toBeUndefined()
    expect(findRoute(routes, "GET", "/v1/applications/1,2/notes/3")).toBeUndefined()
  })

  it("answers HEAD with the GET route, and tells a known path with another method apart from an unknown path", () => {
    const get = route("GET", "/v1/jobs", noop)
    const post = route("POST", "/v1/jobs", noop)
    expect(findRoute([get, post], "HEAD", "/v1/jobs")).toEqual({ route: get, params: {} })
    expect(findRoute([get, post], "POST", "/v1/jobs")).toEqual({ route: post, params: {} })
    expect(findRoute([get, post], "DELETE", "/v1/jobs")).toBe("method-not-allowed")
    expect(findRoute([get, post], "GET", "/v1/users")).toBeUndefined()
  })

  it("guardedRoutes puts patterns under the prefix and runs the guard first; a guard that throws stops the handler", async () => {
    const calls: Array<string> = []
    const guarded = guardedRoutes({
      prefix: "/api/:company/v1",
      guard: (_ctx, params) => {
        calls.push(`guard ${params["company"] ?? ""}`)
        if (params["company"] !== "acme") throw new Error("refused")
      }
    })
    const routes = [guarded("GET", "/users/:id", (_ctx, params) => void calls.push(`handler ${params["id"] ?? ""}`))]
    const found = findRoute(routes, "GET", "/api/acme/v1/users/7")
    if (found === undefined || found === "method-not-allowed") throw new Error("no route")
    await found.route.handler(fakeCtx, found.params)
    expect(calls).toEqual(["guard acme", "handler 7"])
    const refused = findRoute(routes, "GET", "/api/other/v1/users/7")
    if (refused === undefined || refused === "method-not-allowed") throw new Error("no route")
    expect(() => refused.route.handler(fakeCtx, refused.params)).toThrow("refused")
    expect(calls).toEqual(["guard acme", "handler 7", "guard other"])
  })
})
