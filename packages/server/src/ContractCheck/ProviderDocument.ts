import { Effect } from "effect"
import * as Fs from "node:fs/promises"
import * as Yaml from "yaml"
import { ProviderDocumentRejected } from "./ProviderMock.js"

/** The largest provider document read: the largest published HR document we know (Deel's) is 1.8 MB. */
export const MAX_PROVIDER_DOCUMENT_BYTES = 16 * 1024 * 1024

/** A provider's OpenAPI 3.x or Swagger 2.0 document, parsed. */
export interface ProviderDocument {
  readonly path: string
  readonly format: "openapi-3" | "swagger-2"
  readonly content: Record<string, unknown>
}

const rejected = (path: string, why: string) => new ProviderDocumentRejected({ message: `${path}: ${why}` })

/**
 * Parses a document's text, YAML or JSON. Some published documents carry YAML 1.1 tags such as
 * `!!binary` that the YAML 1.2 core schema refuses; they are read, and binary values become
 * base64 text, as they would be in JSON.
 */
const parseText = (text: string): unknown => {
  const trimmed = text.trimStart()
  if (trimmed.startsWith("{")) {
    try {
      return JSON.parse(text)
    } catch {
      // not JSON after all: YAML reads JSON-like flow mappings too
    }
  }
  const value = Yaml.parse(text, { customTags: ["binary", "timestamp"], maxAliasCount: 10_000, prettyErrors: false })
  return JSON.parse(JSON.stringify(value, (_key, item) =>
    item instanceof Uint8Array ? Buffer.from(item).toString("base64") : item instanceof Date ? item.toISOString() : item))
}

/** Reads a provider document and refuses, with the reason, what is not an OpenAPI 3.x or Swagger 2.0 document with paths. */
export const readProviderDocument = (path: string) =>
  Effect.gen(function*() {
    const stat = yield* Effect.tryPromise({
      try: () => Fs.stat(path),
      catch: (cause) => rejected(path, `cannot be read (${cause instanceof Error ? cause.message : String(cause)})`)
    })
    if (!stat.isFile()) return yield* rejected(path, "is not a file")
    if (stat.size > MAX_PROVIDER_DOCUMENT_BYTES) {
      return yield* rejected(
        path,
        `is ${stat.size} bytes, over the ${MAX_PROVIDER_DOCUMENT_BYTES} bytes a provider document may have`
      )
    }
    const text = yield* Effect.tryPromise({
      try: () => Fs.readFile(path, "utf8"),
      catch: (cause) => rejected(path, `cannot be read (${String(cause)})`)
    })
    const content = yield* Effect.try({
      try: () => parseText(text),
      catch: (cause) => rejected(path, `is neither JSON nor YAML (${cause instanceof Error ? cause.message : String(cause)})`)
    })
    if (typeof content !== "object" || content === null || Array.isArray(content)) {
      return yield* rejected(path, "is not an OpenAPI document: its top level is not an object")
    }
    const document = content as Record<string, unknown>
    const openapi = document.openapi
    const format = typeof openapi === "string" && /^3\.\d+/.test(openapi)
      ? "openapi-3" as const
      : document.swagger === "2.0"
      ? "swagger-2" as const
      : undefined
    if (format === undefined) {
      return yield* rejected(
        path,
        typeof openapi === "string" || document.swagger !== undefined
          ? `is OpenAPI/Swagger ${String(openapi ?? document.swagger)}, and only OpenAPI 3.x and Swagger 2.0 are read`
          : "is not an OpenAPI document: it has no `openapi: 3.x` or `swagger: \"2.0\"` field"
      )
    }
    const paths = document.paths
    if (typeof paths !== "object" || paths === null || Object.keys(paths).length === 0) {
      return yield* rejected(path, "has no paths: there is no operation to check a connector against")
    }
    return { path, format, content: document } satisfies ProviderDocument
  })
