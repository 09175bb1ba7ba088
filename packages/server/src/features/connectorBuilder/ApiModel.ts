import type { ApiDialect } from "./loadApiDocument.js"
import type { JsonObject, RefResolver } from "./RefResolver.js"
import type { SchemaView } from "./SchemaView.js"

/*
 * A provider's API description as the builder reads it, the same for OpenAPI 3.x and
 * Swagger 2.0: servers, security schemes and operations with their parameters, request
 * body and successful answer. Schemas stay as written (references unresolved); `view`
 * answers questions about them.
 */

export interface ServerVariable {
  readonly name: string
  readonly defaultValue: string | undefined
  readonly values: ReadonlyArray<string>
  readonly description: string | undefined
}

export interface ApiServer {
  readonly url: string
  readonly description: string | undefined
  readonly variables: ReadonlyArray<ServerVariable>
}

export interface OAuthScope {
  readonly name: string
  readonly description: string
}

export interface OAuthFlow {
  /** OpenAPI 3 flow names; Swagger 2's `accessCode` and `application` are read as authorizationCode and clientCredentials. */
  readonly kind: string
  readonly authorizationUrl: string | undefined
  readonly tokenUrl: string | undefined
  readonly refreshUrl: string | undefined
  readonly scopes: ReadonlyArray<OAuthScope>
}

export type SecurityScheme =
  | {
    readonly kind: "apiKey"
    readonly name: string
    readonly in: string
    readonly parameterName: string
    readonly description: string | undefined
  }
  | {
    readonly kind: "http"
    readonly name: string
    /** Lower case: basic, bearer, digest... */
    readonly scheme: string
    readonly bearerFormat: string | undefined
    readonly description: string | undefined
  }
  | {
    readonly kind: "oauth2"
    readonly name: string
    readonly flows: ReadonlyArray<OAuthFlow>
    readonly description: string | undefined
  }
  | {
    /** openIdConnect, mutualTLS, or a type this builder does not know */
    readonly kind: "other"
    readonly name: string
    readonly type: string
    readonly detail: string | undefined
    readonly description: string | undefined
  }

export type ParameterLocation = "path" | "query" | "header" | "cookie"

export interface ApiParameter {
  readonly name: string
  readonly in: ParameterLocation
  readonly required: boolean
  readonly schema: JsonObject | undefined
  readonly description: string | undefined
}

export interface ApiRequestBody {
  readonly schema: JsonObject | undefined
  readonly contentType: string
  readonly required: boolean
}

export interface ApiResponse {
  readonly status: string
  readonly schema: JsonObject | undefined
  readonly contentType: string | undefined
  /** Every media type the answer is described in (several: the provider negotiates by `Accept`). */
  readonly contentTypes: ReadonlyArray<string>
  /** Header names in lower case. */
  readonly headers: ReadonlyArray<string>
}

export type HttpMethod = "get" | "put" | "post" | "delete" | "patch" | "head" | "options" | "trace"

export const HTTP_METHODS: ReadonlyArray<HttpMethod> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

/** Scheme name → scopes, one entry per alternative (OpenAPI security requirement objects). */
export type SecurityRequirements = ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>

export interface ApiOperation {
  readonly method: HttpMethod
  readonly path: string
  readonly operationId: string | undefined
  readonly summary: string | undefined
  readonly description: string | undefined
  readonly parameters: ReadonlyArray<ApiParameter>
  readonly requestBody: ApiRequestBody | undefined
  /** The first successful answer (2xx, else `default`). */
  readonly response: ApiResponse | undefined
  readonly security: SecurityRequirements | undefined
  readonly deprecated: boolean
}

export interface ApiModel {
  readonly dialect: ApiDialect
  readonly specVersion: string
  readonly title: string
  readonly description: string | undefined
  readonly apiVersion: string | undefined
  readonly documentationUrl: string | undefined
  readonly servers: ReadonlyArray<ApiServer>
  readonly schemes: ReadonlyArray<SecurityScheme>
  readonly security: SecurityRequirements | undefined
  readonly operations: ReadonlyArray<ApiOperation>
  readonly resolver: RefResolver
  readonly view: SchemaView
}
