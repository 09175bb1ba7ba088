import { Either } from "effect"
import { parseDocument } from "yaml"
import { DraftRefusal } from "./DraftRefusal.js"
import { repairQuotedContinuations } from "./repairQuotedContinuations.js"

/*
 * Reads a provider's API description (OpenAPI 3.x or Swagger 2.0, JSON or YAML) into a plain
 * value, or refuses it with the reason. Real documents are messy: some carry YAML tags the
 * core schema does not know (`!!binary` examples in generator output) or repeated keys; those
 * load as their plain text or last value instead of failing the draft.
 */

/** The largest document read: the biggest public HR descriptions are under 2 MB. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024

/** Aliases expanded at most; OpenAPI documents rarely use any, and this stops alias bombs. */
const MAX_ALIAS_COUNT = 10_000

export type ApiDialect = "openapi3" | "swagger2"

export interface LoadedApiDocument {
  readonly dialect: ApiDialect
  /** The `openapi` or `swagger` field as written. */
  readonly specVersion: string
  readonly root: Readonly<Record<string, unknown>>
  /** What was forgiven while reading it, for the draft's review. */
  readonly notes: ReadonlyArray<string>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `16 MB (16777216 bytes)`, or only the bytes below a megabyte. */
const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB (${bytes} bytes)`

/** `!!binary` keeps its base64 text: the builder reads schemas, never example bytes. */
const binaryAsText = {
  tag: "tag:yaml.org,2002:binary",
  resolve: (text: string) => text.replace(/\s+/g, "")
}

type Parsed = { readonly value: unknown; readonly notes: ReadonlyArray<string> }

const parseYaml = (text: string): Either.Either<unknown, string> => {
  try {
    const doc = parseDocument(text, {
      uniqueKeys: false,
      // pretty errors carry the line and column in their first line
      prettyErrors: true,
      customTags: (tags) => [...tags.filter((tag) => typeof tag === "string" || tag.tag !== binaryAsText.tag), binaryAsText]
    })
    const error = doc.errors[0]
    if (error !== undefined) return Either.left(`it is neither JSON nor YAML (${error.message.split("\n")[0]!.replace(/:$/, "")})`)
    return Either.right(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }))
  } catch (error) {
    // alias expansion over the bound, or nesting deeper than the parser's stack
    return Either.left(`it could not be read as YAML (${error instanceof Error ? error.message : String(error)})`)
  }
}

/** A document's text, JSON or YAML, read leniently (see above); the contract check reads documents with it too. */
export const parseApiDocumentText = (text: string): Either.Either<Parsed, string> => {
  const trimmed = text.trimStart()
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return Either.right({ value: JSON.parse(trimmed), notes: [] })
    } catch {
      // not strict JSON (comments, trailing commas): YAML reads most of those
    }
  }
  const strict = parseYaml(text)
  if (Either.isRight(strict)) return Either.right({ value: strict.right, notes: [] })
  const repair = repairQuotedContinuations(text)
  if (repair.repaired === 0) return Either.left(strict.left)
  const repaired = parseYaml(repair.text)
  if (Either.isLeft(repaired)) return Either.left(strict.left)
  return Either.right({
    value: repaired.right,
    notes: [`the document's YAML continues quoted text on lines indented less than their key (${repair.repaired} lines); they were read as part of that text, as lenient YAML parsers read them`]
  })
}

/**
 * The document in `text`, checked to be an OpenAPI 3.x or Swagger 2.0 description with at
 * least one path. `maxBytes` defaults to `MAX_DOCUMENT_BYTES`.
 */
export const loadApiDocument = (
  text: string,
  options: { readonly maxBytes?: number } = {}
): Either.Either<LoadedApiDocument, DraftRefusal> => {
  const maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES
  const refuse = (message: string) => Either.left(new DraftRefusal({ message }))
  const bytes = Buffer.byteLength(text, "utf8")
  if (bytes > maxBytes) {
    return refuse(`the document is ${sizeText(bytes)}; documents of at most ${sizeText(maxBytes)} are read`)
  }
  if (text.trim() === "") return refuse("the document is empty")
  const parsed = parseApiDocumentText(text)
  if (Either.isLeft(parsed)) return refuse(`the document cannot be read: ${parsed.left}`)
  const root = parsed.right.value
  if (!isRecord(root)) {
    return refuse(`the document is not an OpenAPI description: it is ${Array.isArray(root) ? "a list" : `a single ${typeof root === "string" ? "text" : typeof root} value`}, not an object with \`openapi\` and \`paths\``)
  }
  let dialect: ApiDialect
  let specVersion: string
  if (root.openapi !== undefined) {
    specVersion = String(root.openapi)
    if (!/^3\.\d+(\.\d+)?/.test(specVersion)) {
      return refuse(`the document declares openapi: ${specVersion}; OpenAPI 3.x and Swagger 2.0 are read`)
    }
    dialect = "openapi3"
  } else if (root.swagger !== undefined) {
    specVersion = String(root.swagger)
    if (specVersion !== "2.0") return refuse(`the document declares swagger: ${specVersion}; only Swagger 2.0 (and OpenAPI 3.x) is read`)
    dialect = "swagger2"
  } else {
    return refuse(
      "the document is not an OpenAPI description: it has no `openapi` field (OpenAPI 3.x) nor `swagger: \"2.0\"` (Swagger 2.0)" +
        (isRecord(root.info) || isRecord(root.paths) ? "" : `; its top-level keys are ${Object.keys(root).slice(0, 8).join(", ") || "none"}`)
    )
  }
  if (!isRecord(root.paths) || Object.keys(root.paths).length === 0) {
    return refuse(
      root.paths === undefined
        ? "the document has no paths: there is no operation to draft actions from (webhook-only or component-only documents are not drafted)"
        : "the document's paths are empty: there is no operation to draft actions from"
    )
  }
  return Either.right({ dialect, specVersion, root, notes: parsed.right.notes })
}
