import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport, type StreamableHTTPServerTransportOptions } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { z } from "zod"
import type { AtsState, CandidateRec } from "../ats/data.js"
import { AtsViews, searchCandidates } from "../ats/views.js"
import { hash32, rngFor } from "../prng.js"
import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import * as Words from "../words.js"

/**
 * The MCP server: Streamable HTTP in stateless mode (a fresh McpServer and transport per request),
 * open at `/mcp` and behind `Authorization: Bearer {token}` at `/mcp-protected`.
 */

export interface McpOptions {
  readonly token: string
  readonly seed: number
  readonly ats: () => AtsState
  /** The ATS origin, for attachment URLs in tool results. */
  readonly atsOrigin: () => string
}

export const MCP_TOOLS = ["echo", "add", "get_weather", "search_candidates", "get_candidate", "always_fails", "sleep"] as const

const text = (value: unknown): { type: "text"; text: string } => ({ type: "text", text: typeof value === "string" ? value : JSON.stringify(value, null, 2) })

const candidateSummary = (candidate: CandidateRec): Record<string, unknown> => ({
  id: candidate.id,
  name: `${candidate.first_name} ${candidate.last_name}`,
  email: candidate.email_addresses[0]?.value ?? null,
  company: candidate.company,
  title: candidate.title,
  application_ids: [...candidate.application_ids]
})

/** Weather that depends only on (seed, city, date): same question, same answer. */
export const sandboxWeather = (seed: number, city: string, date: string): Record<string, unknown> => {
  const rng = rngFor(seed, "weather", city.trim().toLowerCase(), date)
  const celsius = rng.int(-10, 35)
  return {
    city,
    date,
    conditions: rng.pick(Words.WEATHER),
    temperature_c: celsius,
    temperature_f: Math.round(celsius * 1.8 + 32),
    humidity_pct: rng.int(20, 95),
    wind_kph: rng.int(0, 60)
  }
}

const buildServer = (options: McpOptions, variant: "open" | "protected"): McpServer => {
  const server = new McpServer({ name: `switchyard-sandbox-${variant}`, version: "1.0.0" })
  server.registerTool(
    "echo",
    { title: "Echo", description: "Returns the text it is given.", inputSchema: { text: z.string().describe("Text to echo back") } },
    async ({ text: echoed }) => ({ content: [text(echoed)] })
  )
  server.registerTool(
    "add",
    {
      title: "Add",
      description: "Adds two numbers.",
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() }
    },
    async ({ a, b }) => ({ content: [text(String(a + b))], structuredContent: { sum: a + b } })
  )
  server.registerTool(
    "get_weather",
    {
      title: "Get weather",
      description: "Deterministic sandbox weather for a city (and optional date, YYYY-MM-DD).",
      inputSchema: { city: z.string().min(1), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional() },
      outputSchema: {
        city: z.string(),
        date: z.string(),
        conditions: z.string(),
        temperature_c: z.number(),
        temperature_f: z.number(),
        humidity_pct: z.number(),
        wind_kph: z.number()
      }
    },
    async ({ city, date }) => {
      const weather = sandboxWeather(options.seed, city, date ?? "2025-01-01")
      return { content: [text(`${city}: ${weather["conditions"] as string}, ${weather["temperature_c"] as number} C`)], structuredContent: weather }
    }
  )
  server.registerTool(
    "search_candidates",
    {
      title: "Search candidates",
      description: "Searches the sandbox ATS candidates by name, email, company, title or tag (live data: writes are visible).",
      inputSchema: { query: z.string(), limit: z.number().int().min(1).max(100).optional() },
      outputSchema: {
        total: z.number(),
        candidates: z.array(
          z.object({ id: z.number(), name: z.string(), email: z.string().nullable(), company: z.string().nullable(), title: z.string().nullable(), application_ids: z.array(z.number()) })
        )
      }
    },
    async ({ query, limit }) => {
      const hits = searchCandidates(options.ats(), query, limit ?? 10).map(candidateSummary)
      const result = { total: hits.length, candidates: hits }
      return { content: [text(result)], structuredContent: result }
    }
  )
  server.registerTool(
    "get_candidate",
    { title: "Get candidate", description: "The full Greenhouse-shaped candidate record.", inputSchema: { id: z.number().int() } },
    async ({ id }) => {
      const candidate = options.ats().candidates.get(id)
      if (candidate === undefined) return { content: [text(`Candidate ${id} not found`)], isError: true }
      return { content: [text(new AtsViews(options.ats(), options.atsOrigin()).candidate(candidate))] }
    }
  )
  server.registerTool(
    "always_fails",
    { title: "Always fails", description: "Returns a tool error (isError: true), for error-path tests.", inputSchema: { reason: z.string().optional() } },
    async ({ reason }) => ({ content: [text(reason ?? "This tool always fails")], isError: true })
  )
  server.registerTool(
    "sleep",
    { title: "Sleep", description: "Waits the given milliseconds (max 10000), then answers.", inputSchema: { ms: z.number().int().min(0).max(10000) } },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms))
      return { content: [text(`slept ${ms} ms`)] }
    }
  )
  return server
}

/** Handles `/mcp` and `/mcp-protected`; returns false for other paths. */
export const mcpHandler =
  (options: McpOptions) =>
  async (ctx: Ctx, parsedBody: unknown): Promise<boolean> => {
    const variant = ctx.path === "/mcp" ? "open" : ctx.path === "/mcp-protected" ? "protected" : undefined
    if (variant === undefined) return false
    if (variant === "protected") {
      const auth = ctx.req.headers.authorization ?? ""
      if (auth !== `Bearer ${options.token}`) {
        sendJson(ctx.res, 401, { error: "invalid_token", error_description: "Missing or invalid bearer token" }, { "www-authenticate": 'Bearer realm="switchyard-sandbox", error="invalid_token"' })
        return true
      }
    }
    if (ctx.method !== "POST") {
      sendJson(ctx.res, 405, { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless (POST only)" }, id: null }, { allow: "POST" })
      return true
    }
    if (parsedBody === undefined) {
      sendJson(ctx.res, 400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null })
      return true
    }
    const server = buildServer(options, variant)
    // Stateless: no sessionIdGenerator (left out rather than set to undefined, for exactOptionalPropertyTypes).
    const transportOptions: StreamableHTTPServerTransportOptions = { enableJsonResponse: false }
    const transport = new StreamableHTTPServerTransport(transportOptions)
    ctx.res.on("close", () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(ctx.req, ctx.res, parsedBody)
    return true
  }

export const mcpToken = (seed: number): string => `sandbox-mcp-${hash32(seed, "mcp-token").toString(16).padStart(8, "0")}`
