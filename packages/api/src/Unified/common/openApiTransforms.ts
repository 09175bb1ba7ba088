/*
 * OpenAPI transforms for what the generator cannot see on unified operations: the `proxy`
 * parameter, deprecated parameters, and request bodies that accept undeclared properties.
 */

type Json = Record<string, any>

/**
 * Documents what the generator cannot see on a unified operation: the `proxy` parameter
 * (a template-literal record, left out of the generated parameters), and the deprecated
 * flat parameters.
 */
export const documentUnifiedQuery = (options: {
  readonly proxy?: "deepObject" | "form"
  readonly deprecated?: ReadonlyArray<string>
}): ((operation: Json) => Json) =>
(operation) => {
  const parameters: Array<Json> = (operation.parameters ?? []).map((parameter: Json) =>
    parameter.in === "query" && options.deprecated?.includes(parameter.name)
      ? { ...parameter, deprecated: true }
      : parameter
  )
  if (options.proxy !== undefined) {
    parameters.push({
      name: "proxy",
      in: "query",
      required: false,
      style: options.proxy,
      explode: true,
      description: options.proxy === "deepObject"
        ? "Query parameters passed through to the provider request: proxy[name]=value"
        : "Query parameters passed through to the provider request: proxy[name]=value, or name=value for any name this operation does not define",
      schema: { type: "object", additionalProperties: true }
    })
  }
  return { ...operation, parameters }
}

/**
 * API-level OpenAPI transform: unified request bodies accept (and drop) properties they do
 * not declare, but the generator documents every struct with `additionalProperties: false`.
 * This marks the schemas reachable from the request bodies of `/unified/` operations as open.
 * Add it with `.annotate(OpenApi.Transform, ...)` on the HttpApi that holds the unified groups
 * (compose with any other transform).
 */
export const documentOpenUnifiedRequestBodies = (spec: Record<string, any>): Record<string, any> => {
  const document = structuredClone(spec)
  const schemas: Record<string, Json> = document.components?.schemas ?? {}
  const seen = new Set<string>()
  const open = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(open)
      return
    }
    if (typeof node !== "object" || node === null) return
    const json = node as Json
    if (typeof json.$ref === "string") {
      const name = json.$ref.replace("#/components/schemas/", "")
      if (!seen.has(name) && schemas[name] !== undefined) {
        seen.add(name)
        open(schemas[name])
      }
      return
    }
    if (json.type === "object" && json.additionalProperties === false) json.additionalProperties = true
    for (const value of Object.values(json)) open(value)
  }
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith("/unified/")) continue
    for (const operation of Object.values(methods as Record<string, Json>)) {
      for (const media of Object.values((operation.requestBody?.content ?? {}) as Record<string, Json>)) {
        open(media.schema)
      }
    }
  }
  return document
}
