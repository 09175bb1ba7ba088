import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { type ConnectorIssue, parseConnector, type ParsedConnector, verificationDocuments } from "../src/index.js"

/** A minimal connector whose `info` ends with the given lines (the `verification:` block). */
const connector = (...infoLines: Array<string>) =>
  [
    /* 1 */ "StackOne: 1.0.0",
    /* 2 */ "info:",
    /* 3 */ "  title: Test",
    /* 4 */ "  key: test",
    /* 5 */ "  version: 1.0.0",
    /* 6 on */ ...infoLines,
    "actions: []"
  ].join("\n") + "\n"

const parsed = (text: string): ParsedConnector => {
  const result = parseConnector(text)
  if (Either.isLeft(result)) throw new Error(`expected the connector to parse: ${result.left.message}`)
  return result.right
}

const issues = (text: string): ReadonlyArray<ConnectorIssue> => {
  const result = parseConnector(text)
  if (Either.isRight(result)) throw new Error("expected the connector to be rejected")
  return result.left.issues
}

const documentation = connector(
  "  verification:",
  "    level: documentation",
  "    sources:",
  "      - https://docs.example.com/reference/list-things"
)

describe("info.verification", () => {
  it("reads each level with what it carries", () => {
    expect(parsed(documentation).definition.info.verification).toEqual({
      level: "documentation",
      sources: ["https://docs.example.com/reference/list-things"]
    })
    const contract = connector(
      "  verification:",
      "    level: contract",
      "    document: acme/openapi.v2.yaml",
      "    source: https://github.com/acme/api/blob/0123abc/openapi.yaml"
    )
    expect(parsed(contract).definition.info.verification).toEqual({
      level: "contract",
      document: "acme/openapi.v2.yaml",
      source: "https://github.com/acme/api/blob/0123abc/openapi.yaml"
    })
    expect(parsed(connector("  verification:", "    level: community")).definition.info.verification)
      .toEqual({ level: "community" })
    // optional: a connector without the block (or with an empty one) says nothing
    expect(parsed(connector()).definition.info.verification).toBeUndefined()
    expect(parsed(connector("  verification:")).definition.info.verification).toBeUndefined()
  })

  it("is left out of the content hash, which says what the connector does, but kept in the canonical document", () => {
    const without = parsed(connector())
    const claimed = parsed(documentation)
    const otherLevel = parsed(connector("  verification:", "    level: community"))
    expect(claimed.contentHash).toBe(without.contentHash)
    expect(otherLevel.contentHash).toBe(without.contentHash)
    expect(claimed.canonical).not.toBe(without.canonical)
    expect(JSON.parse(claimed.canonical).info.verification).toEqual({
      level: "documentation",
      sources: ["https://docs.example.com/reference/list-things"]
    })
    // anything else in info still counts
    expect(parsed(documentation.replace("title: Test", "title: Test!")).contentHash).not.toBe(claimed.contentHash)
  })

  it("refuses an unknown level", () => {
    expect(issues(connector("  verification:", "    level: verified"))).toEqual([
      { path: "info.verification.level", message: "expected one of contract, documentation, community", line: 7, column: 12 }
    ])
    expect(issues(connector("  verification: contract"))).toEqual([
      { path: "info.verification", message: "expected object", line: 6, column: 17 }
    ])
  })

  it("refuses contract level without the provider's document", () => {
    expect(issues(connector("  verification:", "    level: contract", "    source: https://example.com/openapi.yaml"))).toEqual([{
      path: "info.verification.document",
      message: "contract level names the provider's OpenAPI document (a path under packages/connectors/provider-documents/), " +
        "or its documents (`documents`) when the provider publishes its API in several",
      line: 7,
      column: 5
    }])
  })

  it("reads a contract level checked against several documents of its provider, and refuses them named twice", () => {
    const several = connector(
      "  verification:",
      "    level: contract",
      "    documents: [sap/ECEmploymentInformation.json, sap/ECPositionManagement.json]",
      "    source: https://github.com/acme/specs/tree/0123abc/docs/spec"
    )
    const verification = parsed(several).definition.info.verification
    expect(verification).toEqual({
      level: "contract",
      documents: ["sap/ECEmploymentInformation.json", "sap/ECPositionManagement.json"],
      source: "https://github.com/acme/specs/tree/0123abc/docs/spec"
    })
    expect(verificationDocuments(verification)).toEqual(["sap/ECEmploymentInformation.json", "sap/ECPositionManagement.json"])
    expect(verificationDocuments(parsed(connector("  verification:", "    level: contract", "    document: acme/openapi.yaml"))
      .definition.info.verification)).toEqual(["acme/openapi.yaml"])
    expect(verificationDocuments(parsed(documentation).definition.info.verification)).toEqual([])

    const refused = (...lines: Array<string>) =>
      issues(connector("  verification:", "    level: contract", ...lines)).map((issue) => [issue.path, issue.message])
    expect(refused("    document: acme/a.yaml", "    documents: [acme/b.yaml]")).toEqual([
      ["info.verification.documents", "name the provider's documents once: `document` for one, `documents` for several"]
    ])
    expect(refused("    documents: []")).toEqual([["info.verification.documents", "documents lists at least one provider document"]])
    expect(refused("    documents: [acme/a.yaml, acme/b.yaml, acme/a.yaml]")).toEqual([
      ["info.verification.documents", "documents names acme/a.yaml more than once"]
    ])
    expect(refused("    documents: [acme/a.yaml, ../b.yaml]")[0]?.[0]).toBe("info.verification.documents[1]")
    expect(issues(connector("  verification:", "    level: community", "    documents: [acme/a.yaml]")).map((issue) => issue.message))
      .toEqual(["documents belongs to contract level only, not community"])
  })

  it("refuses documentation level without an https page", () => {
    const message = "documentation level cites at least one https page of the provider's documentation"
    expect(issues(connector("  verification:", "    level: documentation"))).toEqual([
      { path: "info.verification.sources", message, line: 7, column: 5 }
    ])
    expect(issues(connector("  verification:", "    level: documentation", "    sources: []"))).toEqual([
      { path: "info.verification.sources", message, line: 8, column: 14 }
    ])
    expect(issues(connector("  verification:", "    level: documentation", "    sources: [http://docs.example.com/a, docs]"))).toEqual([
      { path: "info.verification.sources[0]", message: "\"http://docs.example.com/a\" is not an https URL", line: 8, column: 15 },
      { path: "info.verification.sources[1]", message: "\"docs\" is not an https URL", line: 8, column: 42 }
    ])
  })

  it("refuses a document path that leaves its folder and a source that is not https", () => {
    const found = issues(connector("  verification:", "    level: contract", "    document: ../secrets.yaml", "    source: ftp://example.com/a"))
    expect(found.map((issue) => [issue.path, issue.message])).toEqual([
      [
        "info.verification.document",
        "\"../secrets.yaml\" is not a relative path of letters, digits, \".\", \"_\" and \"-\" separated by \"/\" (e.g. bamboohr/public.yaml)"
      ],
      ["info.verification.source", "\"ftp://example.com/a\" is not an https URL"]
    ])
    for (const document of ["/etc/passwd", "acme//openapi.yaml", "acme/.hidden.yaml", "acme/./openapi.yaml"]) {
      expect(issues(connector("  verification:", "    level: contract", `    document: ${document}`))[0]?.path)
        .toBe("info.verification.document")
    }
  })

  it("refuses a document or its source on another level than contract", () => {
    const found = issues(connector(
      "  verification:",
      "    level: documentation",
      "    sources: [https://docs.example.com/a]",
      "    document: acme/openapi.yaml",
      "    source: https://example.com/openapi.yaml"
    ))
    expect(found.map((issue) => [issue.path, issue.message])).toEqual([
      ["info.verification.document", "document belongs to contract level only, not documentation"],
      ["info.verification.source", "source belongs to contract level only, not documentation"]
    ])
  })
})
