import {
  type ApiModel,
  type ApiOperation,
  type ApiParameter,
  type ApiRequestBody,
  type ApiResponse,
  type ApiServer,
  HTTP_METHODS,
  type OAuthFlow,
  type ParameterLocation,
  type SecurityRequirements,
  type SecurityScheme
} from "./ApiModel.js"
import type { LoadedApiDocument } from "./loadApiDocument.js"
import { isRecord, type JsonObject, makeRefResolver, type RefResolver } from "./RefResolver.js"
import { makeSchemaView } from "./SchemaView.js"

/* Reads a loaded OpenAPI 3.x or Swagger 2.0 document into the builder's `ApiModel`. */

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined

const records = (value: unknown): ReadonlyArray<JsonObject> => (Array.isArray(value) ? value.filter(isRecord) : [])

const LOCATIONS: ReadonlySet<string> = new Set(["path", "query", "header", "cookie"])

/** JSON first, then any JSON-like media type, then whatever is there. */
const pickContent = (content: unknown): { readonly type: string; readonly media: JsonObject } | undefined => {
  if (!isRecord(content)) return undefined
  const entries = Object.entries(content).filter((entry): entry is [string, JsonObject] => isRecord(entry[1]))
  const rank = (type: string) => {
    const lower = type.toLowerCase()
    if (lower === "application/json" || lower.startsWith("application/json;")) return 0
    if (lower.includes("json")) return 1
    if (lower === "*/*") return 2
    if (lower.includes("form")) return 3
    return 4
  }
  const [first] = [...entries].sort((a, b) => rank(a[0]) - rank(b[0]))
  return first === undefined ? undefined : { type: first[0], media: first[1] }
}

const securityRequirements = (value: unknown): SecurityRequirements | undefined =>
  Array.isArray(value)
    ? value.filter(isRecord).map((requirement) =>
      Object.fromEntries(
        Object.entries(requirement).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String) : []])
      )
    )
    : undefined

/** Swagger 2.0 puts a parameter's type on the parameter itself; OpenAPI 3 under `schema`. */
const swaggerParameterSchema = (parameter: JsonObject): JsonObject => {
  const { type, format, items, enum: values, default: defaultValue, minimum, maximum } = parameter
  const schema: Record<string, unknown> = {}
  for (const [key, value] of Object.entries({ type, format, items, enum: values, default: defaultValue, minimum, maximum })) {
    if (value !== undefined) schema[key] = value
  }
  return schema
}

const readParameters = (
  resolver: RefResolver,
  list: ReadonlyArray<unknown>,
  swagger: boolean
): { readonly parameters: Array<ApiParameter>; readonly body: JsonObject | undefined; readonly form: Array<JsonObject> } => {
  const parameters: Array<ApiParameter & { readonly style: string | undefined; readonly explode: boolean | undefined }> = []
  let body: JsonObject | undefined
  const form: Array<JsonObject> = []
  for (const entry of list) {
    const parameter = resolver.deref(entry)
    if (parameter === undefined) continue
    const name = text(parameter.name)
    const location = text(parameter.in)
    if (swagger && location === "body") {
      body = resolver.deref(parameter.schema)
      continue
    }
    if (swagger && location === "formData") {
      form.push(parameter)
      continue
    }
    if (name === undefined || location === undefined || !LOCATIONS.has(location)) continue
    parameters.push({
      name,
      in: location as ParameterLocation,
      required: parameter.required === true || location === "path",
      schema: swagger ? swaggerParameterSchema(parameter) : resolver.deref(parameter.schema),
      description: text(parameter.description),
      style: text(parameter.style),
      explode: typeof parameter.explode === "boolean" ? parameter.explode : undefined
    })
  }
  return { parameters: expandObjectParameters(resolver, parameters), body, form }
}

/**
 * An object in the query (`page: {after, limit}`) is sent as one parameter per property:
 * `page[after]` for the deepObject style, `after` for the default form style.
 */
const expandObjectParameters = (
  resolver: RefResolver,
  parameters: ReadonlyArray<ApiParameter & { readonly style?: string | undefined; readonly explode?: boolean | undefined }>
): Array<ApiParameter> => {
  const view = makeSchemaView(resolver)
  return parameters.flatMap((parameter): Array<ApiParameter> => {
    const { explode, style, ...plain } = parameter
    if (parameter.in !== "query" || view.kind(parameter.schema) !== "object") return [plain]
    const properties = view.properties(parameter.schema)
    if (properties.size === 0 || (style !== "deepObject" && explode === false)) return [plain]
    const required = new Set(Array.isArray(parameter.schema?.required) ? parameter.schema.required.map(String) : [])
    return [...properties].map(([name, schema]) => ({
      name: style === "deepObject" ? `${parameter.name}[${name}]` : name,
      in: "query" as const,
      required: parameter.required && required.has(name),
      schema,
      description: text(schema.description) ?? parameter.description
    }))
  })
}

/** Path-level parameters apply to every operation unless the operation redefines them. */
const mergeParameters = (pathLevel: ReadonlyArray<ApiParameter>, own: ReadonlyArray<ApiParameter>) => {
  const key = (parameter: ApiParameter) => `${parameter.in}:${parameter.name}`
  const ownKeys = new Set(own.map(key))
  return [...pathLevel.filter((parameter) => !ownKeys.has(key(parameter))), ...own]
}

const successStatus = (responses: JsonObject): string | undefined => {
  const codes = Object.keys(responses)
  return codes.filter((code) => /^2(\d\d|XX)$/i.test(code)).sort()[0] ?? (codes.includes("default") ? "default" : undefined)
}

const readResponse = (resolver: RefResolver, responses: unknown, swagger: boolean, operationProduces: unknown): ApiResponse | undefined => {
  if (!isRecord(responses)) return undefined
  const status = successStatus(responses)
  if (status === undefined) return undefined
  const response = resolver.deref(responses[status])
  if (response === undefined) return { status, schema: undefined, contentType: undefined, contentTypes: [], headers: [] }
  const headers = isRecord(response.headers) ? Object.keys(response.headers).map((name) => name.toLowerCase()) : []
  if (swagger) {
    const produces = Array.isArray(operationProduces) ? operationProduces.map(String) : []
    const contentType = produces.find((type) => type.toLowerCase().includes("json"))
    return { status, schema: resolver.deref(response.schema), contentType, contentTypes: produces, headers }
  }
  const content = pickContent(response.content)
  const contentTypes = isRecord(response.content) ? Object.keys(response.content) : []
  return { status, schema: resolver.deref(content?.media.schema), contentType: content?.type, contentTypes, headers }
}

const readRequestBody = (
  resolver: RefResolver,
  operation: JsonObject,
  swaggerBody: JsonObject | undefined,
  swaggerForm: ReadonlyArray<JsonObject>,
  consumes: unknown
): ApiRequestBody | undefined => {
  if (swaggerBody !== undefined) return { schema: swaggerBody, contentType: "application/json", required: true }
  if (swaggerForm.length > 0) {
    const properties = Object.fromEntries(
      swaggerForm.map((parameter) => [String(parameter.name), swaggerParameterSchema(parameter)])
    )
    const type = Array.isArray(consumes) && consumes.includes("multipart/form-data") ? "multipart/form-data" : "application/x-www-form-urlencoded"
    return { schema: { type: "object", properties }, contentType: type, required: swaggerForm.some((p) => p.required === true) }
  }
  const requestBody = resolver.deref(operation.requestBody)
  if (requestBody === undefined) return undefined
  const content = pickContent(requestBody.content)
  return {
    schema: resolver.deref(content?.media.schema),
    contentType: content?.type ?? "application/json",
    required: requestBody.required === true
  }
}

const readServers = (root: JsonObject, swagger: boolean): ReadonlyArray<ApiServer> => {
  if (swagger) {
    const host = text(root.host)
    const basePath = text(root.basePath) ?? ""
    if (host === undefined) return basePath === "" ? [] : [{ url: basePath, description: undefined, variables: [] }]
    const schemes = Array.isArray(root.schemes) ? root.schemes.map(String) : []
    const scheme = schemes.includes("https") ? "https" : schemes[0] ?? "https"
    return [{ url: `${scheme}://${host}${basePath}`, description: undefined, variables: [] }]
  }
  return records(root.servers).flatMap((server): Array<ApiServer> => {
    const url = text(server.url)
    if (url === undefined) return []
    const variables = isRecord(server.variables)
      ? Object.entries(server.variables).filter((entry): entry is [string, JsonObject] => isRecord(entry[1])).map((
        [name, variable]
      ) => ({
        name,
        defaultValue: variable.default === undefined ? undefined : String(variable.default),
        values: Array.isArray(variable.enum) ? variable.enum.map(String) : [],
        description: text(variable.description)
      }))
      : []
    return [{ url, description: text(server.description), variables }]
  })
}

const readScopes = (scopes: unknown) =>
  isRecord(scopes) ? Object.entries(scopes).map(([name, description]) => ({ name, description: text(description) ?? "" })) : []

/** Swagger 2.0's flow names in OpenAPI 3's words. */
const SWAGGER_FLOWS: Readonly<Record<string, string>> = {
  accessCode: "authorizationCode",
  application: "clientCredentials",
  implicit: "implicit",
  password: "password"
}

const readScheme = (resolver: RefResolver, name: string, node: unknown): SecurityScheme | undefined => {
  const scheme = resolver.deref(node)
  if (scheme === undefined) return undefined
  const description = text(scheme.description)
  const type = text(scheme.type) ?? "unknown"
  switch (type) {
    case "apiKey":
      return { kind: "apiKey", name, in: text(scheme.in) ?? "header", parameterName: text(scheme.name) ?? name, description }
    case "http":
      return { kind: "http", name, scheme: (text(scheme.scheme) ?? "").toLowerCase(), bearerFormat: text(scheme.bearerFormat), description }
    case "basic":
      return { kind: "http", name, scheme: "basic", bearerFormat: undefined, description }
    case "oauth2": {
      const flows: Array<OAuthFlow> = []
      if (isRecord(scheme.flows)) {
        for (const [kind, flow] of Object.entries(scheme.flows)) {
          if (!isRecord(flow)) continue
          flows.push({
            kind,
            authorizationUrl: text(flow.authorizationUrl),
            tokenUrl: text(flow.tokenUrl),
            refreshUrl: text(flow.refreshUrl),
            scopes: readScopes(flow.scopes)
          })
        }
      } else if (typeof scheme.flow === "string") {
        flows.push({
          kind: SWAGGER_FLOWS[scheme.flow] ?? scheme.flow,
          authorizationUrl: text(scheme.authorizationUrl),
          tokenUrl: text(scheme.tokenUrl),
          refreshUrl: undefined,
          scopes: readScopes(scheme.scopes)
        })
      }
      return { kind: "oauth2", name, flows, description }
    }
    default:
      return {
        kind: "other",
        name,
        type,
        detail: text(scheme.openIdConnectUrl) ?? text(scheme.scheme),
        description
      }
  }
}

export const readApiModel = (loaded: LoadedApiDocument): ApiModel => {
  const root = loaded.root
  const swagger = loaded.dialect === "swagger2"
  const resolver = makeRefResolver(root)
  const info = isRecord(root.info) ? root.info : {}
  const externalDocs = isRecord(root.externalDocs) ? root.externalDocs : {}
  const contact = isRecord(info.contact) ? info.contact : {}
  const schemeNodes = swagger
    ? root.securityDefinitions
    : isRecord(root.components)
    ? root.components.securitySchemes
    : undefined
  const schemes = isRecord(schemeNodes)
    ? Object.entries(schemeNodes).flatMap(([name, node]) => {
      const scheme = readScheme(resolver, name, node)
      return scheme === undefined ? [] : [scheme]
    })
    : []

  const operations: Array<ApiOperation> = []
  for (const [path, pathNode] of Object.entries(root.paths as JsonObject)) {
    const item = resolver.deref(pathNode)
    if (item === undefined) continue
    const pathLevel = readParameters(resolver, Array.isArray(item.parameters) ? item.parameters : [], swagger)
    for (const method of HTTP_METHODS) {
      const operation = item[method]
      if (!isRecord(operation)) continue
      const own = readParameters(resolver, Array.isArray(operation.parameters) ? operation.parameters : [], swagger)
      operations.push({
        method,
        path,
        operationId: text(operation.operationId),
        summary: text(operation.summary),
        description: text(operation.description),
        parameters: mergeParameters(pathLevel.parameters, own.parameters),
        requestBody: readRequestBody(
          resolver,
          operation,
          own.body ?? pathLevel.body,
          [...pathLevel.form, ...own.form],
          operation.consumes ?? root.consumes
        ),
        response: readResponse(resolver, operation.responses, swagger, operation.produces ?? root.produces),
        security: securityRequirements(operation.security),
        deprecated: operation.deprecated === true
      })
    }
  }

  return {
    dialect: loaded.dialect,
    specVersion: loaded.specVersion,
    title: text(info.title) ?? "Untitled API",
    description: text(info.description),
    apiVersion: info.version === undefined ? undefined : String(info.version),
    documentationUrl: text(externalDocs.url) ?? text(contact.url),
    servers: readServers(root, swagger),
    schemes,
    security: securityRequirements(root.security),
    operations,
    resolver,
    view: makeSchemaView(resolver)
  }
}
