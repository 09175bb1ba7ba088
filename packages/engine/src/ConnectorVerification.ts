import { Schema } from "effect"

/*
 * `info.verification`: how a connector version was checked against its provider, so a user
 * knows what to trust. It describes the file, not what the connector does, which is why the
 * content hash leaves it out (see `withoutVerification`).
 */

/**
 * `contract`: checked against the provider's published OpenAPI document, vendored in the
 * repository; `documentation`: against a look-alike built from the provider's documentation
 * pages; `community`: not checked by the platform.
 */
export const VerificationLevel = Schema.Literal("contract", "documentation", "community")
export type VerificationLevel = typeof VerificationLevel.Type

const isHttpsUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return url.protocol === "https:" && url.hostname !== ""
  } catch {
    return false
  }
}

const HttpsUrl = Schema.String.pipe(Schema.filter((value) => isHttpsUrl(value) || `"${value}" is not an https URL`))

/** A segment may not start with a dot: no `.`, `..` or hidden files, so the path stays inside its folder. */
const PATH_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/

/** Where the provider's document lies, relative to packages/connectors/provider-documents/. */
const DocumentPath = Schema.String.pipe(
  Schema.filter((value) =>
    value.split("/").every((segment) => PATH_SEGMENT.test(segment)) ||
    `"${value}" is not a relative path of letters, digits, ".", "_" and "-" separated by "/" (e.g. bamboohr/public.yaml)`
  )
)

/** What each level must (and may only) carry; the issues name the key at fault. */
const levelRules = (verification: {
  readonly level: VerificationLevel
  readonly sources?: ReadonlyArray<string> | undefined
  readonly document?: string | undefined
  readonly documents?: ReadonlyArray<string> | undefined
  readonly source?: string | undefined
}): Array<Schema.FilterIssue> => {
  const { level } = verification
  const issues: Array<Schema.FilterIssue> = []
  if (level === "contract" && verification.document === undefined && verification.documents === undefined) {
    issues.push({
      path: ["document"],
      message: "contract level names the provider's OpenAPI document (a path under packages/connectors/provider-documents/), " +
        "or its documents (`documents`) when the provider publishes its API in several"
    })
  }
  if (verification.document !== undefined && verification.documents !== undefined) {
    issues.push({ path: ["documents"], message: "name the provider's documents once: `document` for one, `documents` for several" })
  }
  if (verification.documents !== undefined) {
    if (verification.documents.length === 0) {
      issues.push({ path: ["documents"], message: "documents lists at least one provider document" })
    }
    const repeated = verification.documents.filter((document, i) => verification.documents!.indexOf(document) !== i)
    if (repeated.length > 0) {
      issues.push({ path: ["documents"], message: `documents names ${[...new Set(repeated)].join(", ")} more than once` })
    }
  }
  if (level === "documentation" && (verification.sources ?? []).length === 0) {
    issues.push({
      path: ["sources"],
      message: "documentation level cites at least one https page of the provider's documentation"
    })
  }
  if (level !== "contract") {
    for (const key of ["document", "documents", "source"] as const) {
      if (verification[key] !== undefined) {
        issues.push({ path: [key], message: `${key} belongs to contract level only, not ${level}` })
      }
    }
  }
  return issues
}

/*
 * `document` and `source` are exact optionals, not nullable ones: behind a `string | null`
 * union a refused path or URL would be reported as "expected string", not with its reason.
 */
export const ConnectorVerification = Schema.Struct({
  level: VerificationLevel,
  /** The provider's documentation pages the connector (and its look-alike) follow. */
  sources: Schema.optionalWith(Schema.Array(HttpsUrl), { nullable: true }),
  /** contract: the provider's OpenAPI document, relative to packages/connectors/provider-documents/. */
  document: Schema.optionalWith(DocumentPath, { exact: true }),
  /**
   * contract, instead of `document`: the provider's documents, when it publishes its API in
   * several (SAP SuccessFactors, one per area: Employment Information, Position Management, ...).
   * The check holds each request to the document that has its path.
   */
  documents: Schema.optionalWith(Schema.Array(DocumentPath), { exact: true }),
  /** contract: where that document (or those documents) was taken from. */
  source: Schema.optionalWith(HttpsUrl, { exact: true })
}).pipe(Schema.filter(levelRules))
export type ConnectorVerification = typeof ConnectorVerification.Type

/** The provider documents a version was checked against (`documents`, or its one `document`), in order. */
export const verificationDocuments = (verification: ConnectorVerification | undefined): ReadonlyArray<string> =>
  verification === undefined
    ? []
    : verification.documents ?? (verification.document === undefined ? [] : [verification.document])

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The document as its content hash sees it: without `info.verification`. Declaring or
 * correcting how a shipped version was checked must not make it differ from the stored copy
 * (the server refuses to start on a changed shipped version), nor give it a new content hash.
 */
export const withoutVerification = (document: unknown): unknown => {
  if (!isRecord(document) || !isRecord(document.info) || !("verification" in document.info)) return document
  const { verification: _verification, ...info } = document.info
  return { ...document, info }
}
