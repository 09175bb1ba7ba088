import { Schema, SchemaAST } from "effect"

/** An absolute http(s) URL: where the platform may send a browser or a request. */
export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/**
 * A query parameter that may be repeated and/or comma-separated
 * (`account_id=a,b&account_id=c`), decoded into one array of items.
 */
export const commaSeparated = <A, I extends string, R>(item: Schema.Schema<A, I, R>) =>
  Schema.transform(
    Schema.Union(Schema.String, Schema.Array(Schema.String)),
    Schema.Array(item),
    {
      strict: false,
      decode: (raw) =>
        (typeof raw === "string" ? [raw] : raw)
          .flatMap((value) => value.split(","))
          .map((value) => value.trim())
          .filter((value) => value.length > 0),
      encode: (values) => values
    }
  )

const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  SchemaAST.isLiteral(ast) ? [String(ast.literal)] : SchemaAST.isUnion(ast) ? ast.types.flatMap(literalsOf) : []

/** `text` matched literally inside a regular expression. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * An `expand` parameter: one or more of `expansions` (literals), comma-separated and/or repeated.
 * OpenAPI lists the values (the decoded type alone would show a plain string): a pattern
 * for the comma-separated form, an enum for the repeated one.
 */
export const expandParam = <A, I extends string, R>(expansions: Schema.Schema<A, I, R>) => {
  const values = literalsOf(expansions.ast)
  const one = `(${values.map(escapeRegExp).join("|")})`
  return commaSeparated(expansions).annotations({
    jsonSchema: {
      description: `What to expand, comma-separated or repeated; any of: ${values.join(", ")}`,
      anyOf: [
        { type: "string", pattern: `^${one}(,${one})*$` },
        { type: "array", items: { type: "string", enum: values } }
      ]
    }
  })
}

/** Platform list pagination: `page` ≥ 1, `page_size` 1..100 (both optional, no defaults). */
export const PageNumber = Schema.NumberFromString.pipe(
  Schema.int({ message: () => "page must be an integer" }),
  Schema.greaterThanOrEqualTo(1, { message: () => "page must be at least 1" })
).annotations({ jsonSchema: { type: "integer", minimum: 1 } })

export const PageSize = Schema.NumberFromString.pipe(
  Schema.int({ message: () => "page_size must be an integer" }),
  Schema.between(1, 100, { message: () => "page_size must be between 1 and 100" })
).annotations({ jsonSchema: { type: "integer", minimum: 1, maximum: 100, default: 25 } })

export const DEFAULT_PAGE_SIZE = 25

export const Uuid = Schema.UUID.annotations({ message: () => "must be a UUID" })

/** Paginated envelope of the platform list operations. */
export const PageOf = <A, I, R>(item: Schema.Schema<A, I, R>, identifier: string) =>
  Schema.Struct({
    data: Schema.Array(item),
    page: Schema.Int,
    page_size: Schema.Int,
    total: Schema.Int,
    next_page: Schema.NullOr(Schema.Int)
  }).annotations({ identifier })

/** A JSON object body: extra properties are rejected rather than silently dropped. */
export const strictObject = { parseOptions: { onExcessProperty: "error" } } as const

/** A keyset list's `next`: an opaque cursor the list itself returned (the server checks its signature). */
export const NextCursor = Schema.String.pipe(
  Schema.maxLength(512, { message: () => "next must be a cursor this list returned" })
)
