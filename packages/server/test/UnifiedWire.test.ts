import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { greenhouseOverFetch } from "./support/FetchAccount.js"
import { SandboxLive } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/*
 * The unified wire as any HTTP client sees it: node's fetch against the server's real
 * port (not our derived client), bracketed query keys, comma lists, bodies and types.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(5))

layer(Server, { excludeTestServices: true })("unified wire", (it) => {
  it.effect("bracketed filters and proxy keys reach the provider; fields is a comma list; bodies are JSON", () =>
    Effect.gen(function*() {
      const { headers, origin, sandbox } = yield* greenhouseOverFetch
      const get = (query: string) =>
        Effect.promise(async () => {
          const response = await fetch(`${origin}/unified/ats/applications?${query}`, { headers })
          return { status: response.status, type: response.headers.get("content-type"), body: await response.json() as any }
        })

      sandbox.clearRequests()
      const ok = yield* get(
        "page_size=5&fields=id,candidate_id&filter[updated_after]=2024-03-01T00:00:00.000Z&filter[created_after]=2024-01-01T00:00:00.000Z&filter[job_id]=3001&proxy[skip_count]=true"
      )
      expect(ok.status).toBe(200)
      expect(ok.type).toContain("application/json")
      for (const record of ok.body.data) expect(Object.keys(record).sort()).toEqual(["candidate_id", "id"])
      const seen = sandbox.requests("ats").find((request) => request.path === "/v1/applications")!
      expect(seen.query).toMatchObject({
        per_page: "5",
        updated_after: expect.stringContaining("2024-03-01"),
        created_after: expect.stringContaining("2024-01-01"),
        job_id: "3001",
        skip_count: "true"
      })

      for (
        const [query, status] of [
          ["filter[nope]=1", 400],
          ["page_size=0", 400],
          ["page_size=abc", 400],
          ["raw=maybe", 400],
          ["filter[updated_after]=yesterday", 400],
          ["next=forged.cursor", 400]
        ] as const
      ) {
        const refused = yield* get(query)
        expect({ query, status: refused.status }).toEqual({ query, status })
        expect(refused.type).toContain("application/json")
        expect(Object.keys(refused.body).sort()).toEqual(["message", "statusCode", "timestamp"])
        expect(refused.body.statusCode).toBe(status)
      }
    }))
})
