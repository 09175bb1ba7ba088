import { XMLBuilder } from "fast-xml-parser"

/*
 * A value the mock generated from a document's schema, written as the XML that schema
 * describes, by OpenAPI's `xml` object: an element per property, named by its `xml.name` or the
 * property's name; `xml.attribute` properties as attributes; an array property as one element
 * per item, named by the items' `xml.name` or the property's name, inside an element of the
 * property's name when `xml.wrapped`. An array whose items are arrays is written as one run of
 * items. Text that holds markup is written as CDATA, as feeds carry HTML descriptions; other
 * text is escaped.
 *
 * Prism generates such answers as JSON whatever their media type (prism-http 5.16); a provider
 * that answers XML must be mocked in XML, or a connector reading JSON would pass the check.
 */

type SchemaNode = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

interface XmlNaming {
  readonly name?: string
  readonly attribute?: boolean
  readonly wrapped?: boolean
}

const naming = (schema: SchemaNode | undefined): XmlNaming => (isRecord(schema?.xml) ? schema.xml as XmlNaming : {})

/** `allOf` members folded into one schema (their properties merged), as the mock's data follows all of them. */
const resolved = (schema: unknown): SchemaNode | undefined => {
  if (!isRecord(schema)) return undefined
  const members = Array.isArray(schema.allOf) ? schema.allOf.map(resolved).filter((member) => member !== undefined) : []
  if (members.length === 0) return schema
  const properties = Object.assign({}, ...members.map((member) => (isRecord(member.properties) ? member.properties : {})), schema.properties)
  return { ...Object.assign({}, ...members), ...schema, properties }
}

const CDATA = "__cdata"
const ATTRIBUTE = "@_"

const text = (value: unknown): unknown => {
  const written = typeof value === "string" ? value : value === null || value === undefined ? "" : String(value)
  return /</.test(written) && !written.includes("]]>") ? { [CDATA]: written } : written
}

/** The builder's input for one element's content: children by name, attributes prefixed. */
const content = (value: unknown, schema: SchemaNode | undefined): unknown => {
  if (!isRecord(value)) return Array.isArray(value) ? value.flat(Infinity).map((item) => content(item, resolved(schema?.items))) : text(value)
  const properties = isRecord(schema?.properties) ? schema.properties : {}
  const out: Record<string, unknown> = {}
  const add = (name: string, child: unknown) => {
    if (!(name in out)) out[name] = child
    else out[name] = [...(Array.isArray(out[name]) ? out[name] as Array<unknown> : [out[name]]), ...(Array.isArray(child) ? child : [child])]
  }
  for (const [key, child] of Object.entries(value)) {
    const property = resolved(properties[key])
    const named = naming(property)
    const name = named.name ?? key
    if (named.attribute === true) {
      out[`${ATTRIBUTE}${name}`] = typeof child === "string" ? child : JSON.stringify(child)
      continue
    }
    if (Array.isArray(child)) {
      const items = resolved(property?.items)
      // nested arrays (an array of arrays of records) are one run of items
      const flat = child.flat(Infinity)
      const itemName = naming(items).name ?? name
      const written = flat.map((item) => content(item, innermost(items)))
      if (named.wrapped === true) add(name, { [itemName]: written })
      else add(itemName, written)
      continue
    }
    add(name, content(child, property))
  }
  return out
}

/** The record schema at the bottom of nested array schemas. */
const innermost = (schema: SchemaNode | undefined): SchemaNode | undefined => {
  let at = schema
  while (at !== undefined && at.type === "array") at = resolved(at.items)
  return at
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE,
  cdataPropName: CDATA,
  // one line: indentation would put whitespace around CDATA inside its element
  format: false,
  suppressEmptyNode: false
})

/** `value` as an XML document whose root element is the schema's `xml.name` (`root` without one). */
export const xmlFromSchema = (value: unknown, schema: unknown): string => {
  const root = resolved(schema)
  const name = naming(root).name ?? "root"
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [name]: content(value, root) }) as string}`
}
