import { Effect, Either } from "effect"
import * as Fs from "node:fs/promises"
import { MAX_DOCUMENT_BYTES, parseApiDocumentText } from "../../features/connectorBuilder/loadApiDocument.js"
import { ProviderDocumentRejected } from "./ProviderMock.js"

/** The largest provider document read: the builder's bound (the largest HR document we know, Deel's, is 1.8 MB). */
export const MAX_PROVIDER_DOCUMENT_BYTES = MAX_DOCUMENT_BYTES

/** A provider's OpenAPI 3.x or Swagger 2.0 document, parsed. */
export interface ProviderDocument {
  readonly path: string
  readonly format: "openapi-3" | "swagger-2"
  readonly content: Record<string, unknown>
}

const rejected = (path: string, why: string) => new ProviderDocumentRejected({ message: `${path}: ${why}` })

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
    // the builder's lenient reading: YAML 1.1 tags such as `!!binary`, quoted text continued on short lines
    const parsed = parseApiDocumentText(text)
    if (Either.isLeft(parsed)) return yield* rejected(path, parsed.left.replace(/^it /, ""))
    const content = parsed.right.value
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
