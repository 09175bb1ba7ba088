import { Schema } from "effect"
import { ProxyParams, ProxyValue } from "./queryParams.js"

/* The query schema of a unified operation: flat on the wire, `filter` and `proxy` nested once decoded. */

type FilterFields = Record<string, Schema.Schema.AnyNoContext>

type OptionalFields<F extends FilterFields> = { readonly [K in keyof F]: Schema.optional<F[K]> }

/** Decoded query of a unified operation: its flat parameters plus `filter` and `proxy` objects. */
export type UnifiedQuery<P extends Schema.Struct.Fields, F extends FilterFields> =
  & Schema.Struct.Type<P>
  & ([keyof F] extends [never] ? {} : { readonly filter?: Schema.Struct.Type<OptionalFields<F>> })
  & { readonly proxy?: { readonly [x: string]: string | ReadonlyArray<string> } }

/** What travels in the query string. */
export type WireQuery = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

export interface UnifiedQueryOptions<P extends Schema.Struct.Fields, F extends FilterFields> {
  /** Flat parameters (each `Schema.optional(...)`), named as on the wire. */
  readonly params: P
  /** Filter keys, without the `filter[...]` wrapper; other `filter[...]` keys are rejected. */
  readonly filter?: F
  /**
   * Also accept the filter keys and the pass-through keys without their prefix
   * (`status=...` for `filter[status]`, any other unknown key for `proxy[key]`).
   */
  readonly unprefixed?: boolean
}

const bracketed = (prefix: string, key: string): string | undefined =>
  key.startsWith(`${prefix}[`) && key.endsWith("]") ? key.slice(prefix.length + 1, -1) : undefined

/**
 * The query schema of a unified operation.
 *
 * On the wire the query is flat (`ParsedSearchParams`): filter keys are declared literally
 * (`"filter[updated_after]"`), pass-through keys match a `proxy[...]` template-literal record,
 * and any other `filter[...]` key matches a record whose value is `never`, so it fails with a
 * 400 naming the key. The decoded value nests them: `{...params, filter: {...}, proxy: {...}}`
 * (`filter` and `proxy` absent when none given). Encoding (the derived client) flattens back.
 */
export const unifiedQuery = <
  const P extends Schema.Struct.Fields,
  const F extends FilterFields = {}
>(options: UnifiedQueryOptions<P, F>): Schema.Schema<UnifiedQuery<P, F>, WireQuery> => {
  const filter: FilterFields = options.filter ?? {}
  const filterNames = Object.keys(filter)
  const paramNames = new Set(Object.keys(options.params))
  const allowedFilterKeys = filterNames.map((name) => `filter[${name}]`)

  const wireFields: Record<string, Schema.Struct.Field> = { ...options.params }
  for (const name of filterNames) wireFields[`filter[${name}]`] = Schema.optional(filter[name]!)

  const unsupportedFilter = Schema.Never.annotations({
    message: () =>
      allowedFilterKeys.length === 0
        ? "this operation accepts no filter"
        : `unsupported filter key; this operation accepts ${allowedFilterKeys.join(", ")}`
  })
  const records: Array<Schema.Schema.Any> = [
    Schema.Record({ key: Schema.TemplateLiteral("proxy[", Schema.String, "]"), value: ProxyValue }),
    Schema.Record({
      key: Schema.TemplateLiteral("filter[", Schema.String, "]").pipe(
        Schema.filter((key) => !allowedFilterKeys.includes(key))
      ),
      value: unsupportedFilter
    })
  ]
  if (options.unprefixed === true) {
    records.push(Schema.Record({
      key: Schema.String.pipe(
        Schema.filter((key) =>
          !paramNames.has(key) && bracketed("filter", key) === undefined && bracketed("proxy", key) === undefined
        )
      ),
      value: ProxyValue
    }))
  }
  const wire = Schema.Struct(wireFields, ...(records as [any, ...Array<any>]))

  const decodedFields: Record<string, Schema.Struct.Field> = { ...options.params }
  if (filterNames.length > 0) {
    const filterStruct: Record<string, Schema.Struct.Field> = {}
    for (const name of filterNames) filterStruct[name] = Schema.optional(filter[name]!)
    decodedFields.filter = Schema.optional(Schema.Struct(filterStruct))
  }
  decodedFields.proxy = Schema.optional(ProxyParams)
  const decoded = Schema.typeSchema(Schema.Struct(decodedFields))

  return Schema.transform(wire, decoded, {
    strict: false,
    decode: (input: Record<string, unknown>) => {
      const out: Record<string, unknown> = {}
      const filterOut: Record<string, unknown> = {}
      const proxyOut: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(input)) {
        if (value === undefined) continue
        if (paramNames.has(key)) {
          out[key] = value
          continue
        }
        const filterName = bracketed("filter", key)
        if (filterName !== undefined) {
          filterOut[filterName] = value
          continue
        }
        const proxyName = bracketed("proxy", key)
        if (proxyName !== undefined) {
          proxyOut[proxyName] = value
          continue
        }
        if (options.unprefixed === true) {
          if (Object.hasOwn(filter, key)) {
            // the bracketed form wins when both are given
            if (!Object.hasOwn(filterOut, key)) filterOut[key] = value
          } else {
            proxyOut[key] = value
          }
        }
      }
      if (options.unprefixed === true) {
        // a later bracketed key must still win over an earlier bare one
        for (const name of filterNames) {
          const bracketedValue = input[`filter[${name}]`]
          if (bracketedValue !== undefined) filterOut[name] = bracketedValue
        }
      }
      if (Object.keys(filterOut).length > 0) out.filter = filterOut
      if (Object.keys(proxyOut).length > 0) out.proxy = proxyOut
      return out
    },
    encode: (query: Record<string, unknown>) => {
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(query)) {
        if (value === undefined) continue
        if (key === "filter" || key === "proxy") {
          for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
            if (inner !== undefined) out[`${key}[${name}]`] = inner
          }
        } else {
          out[key] = value
        }
      }
      return out
    }
  }) as any
}
