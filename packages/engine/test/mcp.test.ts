import { describe, expect, it } from "@effect/vitest"
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"
import { mcpInitializeParams, MCP_PROTOCOL_VERSION, readSseLine, sseEvents } from "../src/index.js"

describe("MCP event streams", () => {
  it("gives the data of each event: lines joined, comments and other fields skipped", () => {
    const text = ": hello\nevent: message\nid: 7\ndata: {\"a\":\ndata:  1}\n\nretry: 10\n\ndata\ndata:x\r\n\r\ndata: last"
    expect(sseEvents(text)).toEqual(["{\"a\":\n 1}", "\nx", "last"])
    expect(sseEvents("data: one\rdata: two\r\r")).toEqual(["one\ntwo"])
    expect(sseEvents("")).toEqual([])
  })

  it("reads line by line, keeping the event under way in place", () => {
    const data: Array<string> = []
    expect(readSseLine(data, "data: a")).toBeUndefined()
    expect(readSseLine(data, "data: b")).toBeUndefined()
    expect(data).toEqual(["a", "b"])
    expect(readSseLine(data, "")).toBe("a\nb")
    expect(data).toEqual([])
    expect(readSseLine(data, "")).toBeUndefined()
  })

  it("initializes with the one protocol version both clients speak: the SDK's", () => {
    expect(mcpInitializeParams.protocolVersion).toBe(MCP_PROTOCOL_VERSION)
    expect(MCP_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION)
    expect(MCP_PROTOCOL_VERSION).toBe("2025-11-25")
  })
})
