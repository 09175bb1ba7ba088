import { describe, expect, it } from "@effect/vitest"
import { scopeAllows } from "../src/features/auth/ScopePolicy.js"

describe("scopeAllows", () => {
  it("gives Full Access everything", () => {
    expect(scopeAllows("full_access", "DELETE", "/v2/accounts/a")).toBe(true)
    expect(scopeAllows("full_access", "POST", "/actions/rpc")).toBe(true)
  })

  it("gives Read Only GET requests only", () => {
    expect(scopeAllows("read_only", "GET", "/v2/accounts")).toBe(true)
    expect(scopeAllows("read_only", "GET", "/unified/ats/applications")).toBe(true)
    expect(scopeAllows("read_only", "GET", "/requests/logs")).toBe(true)
    expect(scopeAllows("read_only", "GET", "/requests/logs/0b1e5f7a-2c1d-4b8e-9f00-123456789abc")).toBe(true)
    expect(scopeAllows("read_only", "PATCH", "/v2/accounts/a")).toBe(false)
    expect(scopeAllows("read_only", "POST", "/actions/rpc")).toBe(false)
  })

  it("gives Accounts account management only", () => {
    expect(scopeAllows("accounts", "GET", "/v2/accounts")).toBe(true)
    expect(scopeAllows("accounts", "DELETE", "/v2/accounts/a")).toBe(true)
    expect(scopeAllows("accounts", "GET", "/v2/accounts/filters")).toBe(true)
    expect(scopeAllows("accounts", "GET", "/v2/accountsx")).toBe(false)
    expect(scopeAllows("accounts", "POST", "/connect_sessions")).toBe(true)
    expect(scopeAllows("accounts", "GET", "/connect_sessions/s")).toBe(true)
    expect(scopeAllows("actions", "POST", "/connect_sessions")).toBe(false)
    expect(scopeAllows("accounts", "GET", "/v2/connectors")).toBe(false)
    expect(scopeAllows("accounts", "POST", "/actions/rpc")).toBe(false)
  })

  it("gives Actions action execution only: the RPC, MCP and the unified operations", () => {
    expect(scopeAllows("actions", "POST", "/actions/rpc")).toBe(true)
    expect(scopeAllows("actions", "POST", "/mcp")).toBe(true)
    expect(scopeAllows("actions", "GET", "/unified/ats/applications")).toBe(true)
    expect(scopeAllows("actions", "GET", "/v2/accounts")).toBe(false)
    expect(scopeAllows("actions", "GET", "/v2/connectors")).toBe(false)
    expect(scopeAllows("actions", "GET", "/requests/logs")).toBe(false)
    expect(scopeAllows("accounts", "GET", "/requests/logs")).toBe(false)
  })
})
