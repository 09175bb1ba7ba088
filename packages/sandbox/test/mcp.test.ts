import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MCP_TOOLS, startSandbox, type Sandbox } from "../src/index.js"
import { basic } from "./support.js"

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ seed: 11 })
})
afterAll(async () => {
  await sb.close()
})

const connect = async (url: string, headers?: Record<string, string>): Promise<Client> => {
  const client = new Client({ name: "sandbox-test", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(url), headers === undefined ? undefined : { requestInit: { headers } })
  await client.connect(transport)
  return client
}

const textOf = (result: unknown): string => ((result as { content: Array<{ type: string; text: string }> }).content[0] as { text: string }).text

describe("MCP (Streamable HTTP, stateless)", () => {
  it("lists and calls tools on the open endpoint", async () => {
    const client = await connect(sb.mcp.url)
    try {
      const tools = await client.listTools()
      expect(tools.tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort())
      const echo = await client.callTool({ name: "echo", arguments: { text: "hello sandbox" } })
      expect(textOf(echo)).toBe("hello sandbox")
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })
      expect(sum.structuredContent).toEqual({ sum: 42 })
      const w1 = await client.callTool({ name: "get_weather", arguments: { city: "Lisbon", date: "2025-03-01" } })
      const w2 = await client.callTool({ name: "get_weather", arguments: { city: "Lisbon", date: "2025-03-01" } })
      expect(w1.structuredContent).toEqual(w2.structuredContent)
      expect(w1.structuredContent).toMatchObject({ city: "Lisbon", temperature_c: expect.any(Number) })
      const fails = await client.callTool({ name: "always_fails", arguments: {} })
      expect(fails.isError).toBe(true)
      const bad = await client.callTool({ name: "echo", arguments: { text: 5 } })
      expect(bad.isError).toBe(true)
    } finally {
      await client.close()
    }
  })

  it("searches live ATS candidates (writes are visible)", async () => {
    const cand = (await (await fetch(`${sb.ats.baseUrl}/candidates/200003`, { headers: { authorization: basic(sb.ats.apiKey) } })).json()) as { first_name: string; last_name: string }
    const client = await connect(sb.mcp.url)
    try {
      const found = await client.callTool({ name: "search_candidates", arguments: { query: `${cand.first_name} ${cand.last_name}`, limit: 50 } })
      const hits = (found.structuredContent as { candidates: Array<{ id: number }> }).candidates
      expect(hits.map((c) => c.id)).toContain(200003)
      await fetch(`${sb.ats.baseUrl}/candidates`, {
        method: "POST",
        headers: { authorization: basic(sb.ats.apiKey), "content-type": "application/json", "on-behalf-of": String(sb.ats.onBehalfOf) },
        body: JSON.stringify({ first_name: "Zebulon", last_name: "Quasar", applications: [{ job_id: 3001 }] })
      })
      const fresh = await client.callTool({ name: "search_candidates", arguments: { query: "zebulon quasar" } })
      expect((fresh.structuredContent as { total: number }).total).toBe(1)
      const full = await client.callTool({ name: "get_candidate", arguments: { id: 200003 } })
      expect(JSON.parse(textOf(full))).toMatchObject({ id: 200003, first_name: cand.first_name })
    } finally {
      await client.close()
    }
  })

  it("protects /mcp-protected with the bearer token", async () => {
    const raw = await fetch(sb.mcp.protectedUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    expect(raw.status).toBe(401)
    expect(raw.headers.get("www-authenticate")).toContain("Bearer")
    await expect(connect(sb.mcp.protectedUrl)).rejects.toThrow()
    await expect(connect(sb.mcp.protectedUrl, { authorization: "Bearer wrong" })).rejects.toThrow()
    const client = await connect(sb.mcp.protectedUrl, { authorization: `Bearer ${sb.mcp.token}` })
    try {
      const echo = await client.callTool({ name: "echo", arguments: { text: "secret hello" } })
      expect(textOf(echo)).toBe("secret hello")
    } finally {
      await client.close()
    }
    expect(sb.requests("mcp").some((r) => r.path === "/mcp-protected" && r.headers["authorization"] === undefined)).toBe(true)
  })

  it("answers 405 to GET in stateless mode and honours fault plans", async () => {
    expect((await fetch(sb.mcp.url)).status).toBe(405)
    sb.faults.add({ match: { provider: "mcp" }, fault: "status", status: 503, times: 1 })
    await expect(connect(sb.mcp.url)).rejects.toThrow()
    const client = await connect(sb.mcp.url)
    await client.close()
  })
})
