import type { ApiModel, OAuthFlow, SecurityScheme } from "./ApiModel.js"
import { camelName } from "./camelName.js"
import type { ConfigField, DraftedBaseUrl } from "./draftBaseUrl.js"
import { identifierOf } from "./names.js"

/*
 * Authentication methods from the document's security schemes: API keys in a header or the
 * query, HTTP basic and bearer, OAuth 2.0 authorization code and client credentials with
 * their URLs and scopes. Schemes the connector format cannot express (OpenID Connect
 * discovery, implicit and password flows, cookies, mutual TLS, other HTTP schemes) are
 * never dropped in silence: each becomes a comment saying what it was and why it is not a
 * method. Schemes a requirement combines (`{ApiKey: [], ApiKeySubdomain: []}`) become one
 * method whose extra keys are sent by every request.
 */

export interface DraftedMethod {
  readonly name: string
  /** The security scheme it was drafted from. */
  readonly scheme: string
  readonly method: Record<string, unknown>
  /** Comment lines above the method. */
  readonly comments: ReadonlyArray<string>
}

/** A credential sent with every request because a combined requirement needs it. */
export interface CredentialArg {
  readonly name: string
  readonly in: "headers" | "query"
  readonly value: string
}

export interface DraftedAuthentication {
  readonly methods: ReadonlyArray<DraftedMethod>
  /** One line per scheme that is not a method, said in the YAML. */
  readonly notUnderstood: ReadonlyArray<string>
  readonly review: ReadonlyArray<string>
  readonly requestArgs: ReadonlyArray<CredentialArg>
  /** Actions the methods need (a refresh_token action when tokens are refreshed elsewhere than tokenUrl). */
  readonly actions: ReadonlyArray<Record<string, unknown>>
}

const secretField = (key: string, label: string, description?: string): ConfigField => ({
  key,
  label,
  type: "password",
  required: true,
  secret: true,
  ...(description === undefined ? {} : { description })
})

const textField = (key: string, label: string, description?: string): ConfigField => ({
  key,
  label,
  type: "text",
  required: true,
  secret: false,
  ...(description === undefined ? {} : { description })
})

const firstSentence = (text: string | undefined) => {
  if (text === undefined) return undefined
  const plain = text.replace(/[#*`>]/g, "").replace(/\s+/g, " ").trim()
  const sentence = plain.match(/^.{10,300}?[.!?](\s|$)/)?.[0]?.trim() ?? plain.slice(0, 300)
  return sentence === "" ? undefined : sentence
}

/** Scopes the document's requirements ask of `scheme`, else every scope its flow declares. */
const scopesFor = (model: ApiModel, scheme: string, flow: OAuthFlow): ReadonlyArray<string> => {
  const asked = new Set<string>()
  for (const requirements of [model.security ?? [], ...model.operations.map((operation) => operation.security ?? [])]) {
    for (const requirement of requirements) for (const scope of requirement[scheme] ?? []) asked.add(scope)
  }
  const declared = flow.scopes.map((scope) => scope.name)
  return asked.size > 0 ? [...asked] : declared
}

/** Requirement objects that combine several schemes (all needed at once). */
const combinations = (model: ApiModel): ReadonlyArray<ReadonlyArray<string>> => {
  const seen = new Map<string, ReadonlyArray<string>>()
  for (const requirements of [model.security ?? [], ...model.operations.map((operation) => operation.security ?? [])]) {
    for (const requirement of requirements) {
      const names = Object.keys(requirement)
      if (names.length > 1) seen.set(names.join("\u0000"), names)
    }
  }
  return [...seen.values()]
}

export const draftAuthentication = (
  model: ApiModel,
  base: DraftedBaseUrl,
  testAction: string | undefined
): DraftedAuthentication => {
  const methods: Array<DraftedMethod> = []
  const notUnderstood: Array<string> = []
  const review: Array<string> = []
  const requestArgs: Array<CredentialArg> = []
  const actions: Array<Record<string, unknown>> = []
  const usedNames = new Set<string>()
  const methodName = (wanted: string) => {
    let name = identifierOf(wanted, "auth")
    for (let n = 2; usedNames.has(name); n++) name = `${identifierOf(wanted, "auth")}_${n}`
    usedNames.add(name)
    return name
  }
  const tests = testAction === undefined ? {} : { testActions: [{ action: testAction }] }

  // secondary members of combined requirements are sent as request arguments of the first
  const secondary = new Map<string, string>()
  for (const combined of combinations(model)) {
    const schemes = combined.map((name) => model.schemes.find((scheme) => scheme.name === name))
    const primary = schemes.find((scheme) => scheme !== undefined)
    for (const scheme of schemes) {
      if (scheme === undefined || scheme === primary) continue
      secondary.set(scheme.name, primary!.name)
    }
  }
  const extraFieldsFor = (primaryName: string): Array<ConfigField> => {
    const fields: Array<ConfigField> = []
    for (const [name, primary] of secondary) {
      if (primary !== primaryName) continue
      const scheme = model.schemes.find((entry) => entry.name === name)
      if (scheme?.kind === "apiKey" && (scheme.in === "header" || scheme.in === "query")) {
        const key = camelName(scheme.name, "key")
        fields.push(textField(key, scheme.name, `${firstSentence(scheme.description) ?? `sent as ${scheme.parameterName}`} (${scheme.in} ${scheme.parameterName})`))
        requestArgs.push({ name: scheme.parameterName, in: scheme.in === "header" ? "headers" : "query", value: `$.credentials.${key}` })
        review.push(`${scheme.name} is required together with ${primaryName}: it is sent as the ${scheme.in} ${scheme.parameterName} by every request`)
      } else if (scheme !== undefined) {
        notUnderstood.push(`${scheme.name}: required together with ${primaryName}, but only an API key can be sent beside another method`)
      }
    }
    return fields
  }

  const schemeLine = (scheme: SecurityScheme, why: string) => `not understood: security scheme ${scheme.name} (${describeScheme(scheme)}): ${why}`

  for (const scheme of model.schemes) {
    if (secondary.has(scheme.name)) continue
    const description = firstSentence(scheme.description)
    switch (scheme.kind) {
      case "apiKey": {
        if (scheme.in !== "header" && scheme.in !== "query") {
          notUnderstood.push(schemeLine(scheme, `API keys in a ${scheme.in} cannot be sent by the connector format (header or query only)`))
          break
        }
        const inAuthorization = scheme.parameterName.toLowerCase() === "authorization"
        const bearer = inAuthorization && /bearer|token/i.test(`${scheme.name} ${scheme.description ?? ""}`)
        const value = bearer ? "Bearer ${credentials.apiKey}" : "$.credentials.apiKey"
        if (inAuthorization) {
          review.push(
            `${scheme.name} puts the key in the Authorization header: ${bearer ? "the draft sends \"Bearer <key>\"" : "the draft sends the key as it is"}; check what the provider expects there (a prefix such as Bearer or Basic)`
          )
        }
        methods.push({
          name: methodName(scheme.name),
          scheme: scheme.name,
          method: {
            type: "custom",
            label: `${scheme.name} (API key in ${scheme.in} ${scheme.parameterName})`,
            authorization: { type: "apiKey", key: scheme.parameterName, value, in: scheme.in },
            configFields: [secretField("apiKey", "API key", description), ...extraFieldsFor(scheme.name)],
            ...tests
          },
          comments: []
        })
        break
      }
      case "http": {
        if (scheme.scheme === "basic") {
          methods.push({
            name: methodName(scheme.name),
            scheme: scheme.name,
            method: {
              type: "custom",
              label: `${scheme.name} (HTTP basic)`,
              authorization: { type: "basic", username: "$.credentials.username", password: "$.credentials.password" },
              configFields: [textField("username", "Username", description), secretField("password", "Password"), ...extraFieldsFor(scheme.name)],
              ...tests
            },
            comments: []
          })
        } else if (scheme.scheme === "bearer") {
          methods.push({
            name: methodName(scheme.name),
            scheme: scheme.name,
            method: {
              type: "custom",
              label: `${scheme.name} (bearer token${scheme.bearerFormat === undefined ? "" : `, ${scheme.bearerFormat}`})`,
              authorization: { type: "bearer", token: "$.credentials.token" },
              configFields: [secretField("token", "Access token", description), ...extraFieldsFor(scheme.name)],
              ...tests
            },
            comments: []
          })
        } else {
          notUnderstood.push(schemeLine(scheme, `the HTTP ${scheme.scheme || "(unnamed)"} scheme is not one the connector format sends (basic or bearer)`))
        }
        break
      }
      case "oauth2": {
        if (scheme.flows.length === 0) notUnderstood.push(schemeLine(scheme, "it declares no flow"))
        for (const flow of scheme.flows) {
          const name = scheme.flows.length > 1 ? `${scheme.name}_${flow.kind}` : scheme.name
          const scopes = scopesFor(model, scheme.name, flow)
          const urlFields: Array<ConfigField> = []
          const url = (value: string | undefined, what: string) => {
            if (value === undefined) {
              review.push(`${name}: the document gives no ${what}; add it`)
              return undefined
            }
            const resolved = base.absolute(value)
            urlFields.push(...resolved.fields.filter((field) => !urlFields.some((known) => known.key === field.key)))
            if (resolved.relative) review.push(`${name}: the ${what} ${value} is relative, read against the API's address`)
            if (resolved.url.includes("${credentials.")) review.push(`${name}: the ${what} depends on configuration fields (${resolved.url}); check they are known when the flow runs`)
            const host = resolved.url.match(/^[a-z][a-z0-9+.-]*:\/\/([^/:?#]+)/i)?.[1]
            if (host !== undefined && !host.includes("${") && !looksLikePublicHost(host)) {
              review.push(`${name}: the ${what}'s host ${host} does not look like a public host name; check the URL`)
            }
            return resolved.url
          }
          if ((flow.kind === "authorizationCode" || flow.kind === "clientCredentials") && flow.tokenUrl === undefined) {
            // no token endpoint, no token: a method drafted from it could only fail (Thinkific's)
            notUnderstood.push(schemeLine(scheme, `its ${flow.kind} flow gives no tokenUrl, so no method is drafted from it`))
            continue
          }
          if (flow.kind === "authorizationCode") {
            const authorizationUrl = url(flow.authorizationUrl, "authorizationUrl")
            const tokenUrl = url(flow.tokenUrl, "tokenUrl")
            const refresh = refreshFor(name, flow, tokenUrl, base, actions, review)
            methods.push({
              name: methodName(name),
              scheme: scheme.name,
              method: {
                ...oauth2Base(`${scheme.name} (OAuth 2.0 authorization code)`, "authorization_code", tokenUrl, scopes),
                ...(authorizationUrl === undefined ? {} : { authorizationUrl }),
                setupFields: [
                  textField("clientId", "Client ID", "The client id of your OAuth app with the provider"),
                  secretField("clientSecret", "Client secret", "The client secret of your OAuth app")
                ],
                ...(refresh === undefined ? {} : { refreshAuthentication: { action: refresh } }),
                authorization: { type: "oauth2", token: "$.credentials.accessToken", includeBearer: true },
                ...extraConfig([...urlFields, ...extraFieldsFor(scheme.name)]),
                ...tests
              },
              comments: [
                ...(description === undefined ? [] : [description]),
                refresh === undefined
                  ? "tokens are refreshed with the standard refresh_token grant at tokenUrl"
                  : `tokens are refreshed by the ${refresh} action (the document refreshes at ${flow.refreshUrl})`,
                ...(scopes.length > 10 ? [`review: ${scopes.length} scopes requested; keep only those the actions need`] : [])
              ]
            })
          } else if (flow.kind === "clientCredentials") {
            const tokenUrl = url(flow.tokenUrl, "tokenUrl")
            methods.push({
              name: methodName(name),
              scheme: scheme.name,
              method: {
                ...oauth2Base(`${scheme.name} (OAuth 2.0 client credentials)`, "client_credentials", tokenUrl, scopes),
                configFields: [
                  textField("clientId", "Client ID", description),
                  secretField("clientSecret", "Client secret"),
                  ...urlFields,
                  ...extraFieldsFor(scheme.name)
                ],
                authorization: { type: "oauth2", includeBearer: true },
                ...tests
              },
              comments: ["the token is fetched with the client credentials and fetched again when it expires"]
            })
          } else {
            notUnderstood.push(schemeLine(
              scheme,
              `the ${flow.kind} flow${flow.authorizationUrl === undefined ? "" : ` (${flow.authorizationUrl})`} is not supported by the connector format (authorization code or client credentials only)`
            ))
          }
        }
        break
      }
      case "other":
        notUnderstood.push(schemeLine(
          scheme,
          scheme.type === "openIdConnect"
            ? `OpenID Connect discovery is not part of the connector format; write an oauth2 method with the endpoints its discovery document${scheme.detail === undefined ? "" : ` (${scheme.detail})`} lists`
            : scheme.type === "mutualTLS"
            ? "client certificates cannot be configured in the connector format"
            : `the type ${scheme.type} is not an OpenAPI security scheme type the builder knows`
        ))
        break
    }
  }
  if (model.schemes.length === 0) {
    review.push("the document declares no security scheme: add the provider's authentication by hand")
  }
  // a requirement naming a scheme the document never declares (Rippling's "Authorization Code") is said too
  const declared = new Set(model.schemes.map((scheme) => scheme.name))
  const undeclared = new Set<string>()
  for (const requirements of [model.security ?? [], ...model.operations.map((operation) => operation.security ?? [])]) {
    for (const requirement of requirements) for (const name of Object.keys(requirement)) if (!declared.has(name)) undeclared.add(name)
  }
  for (const name of undeclared) review.push(`the document's security requirements name ${name}, a scheme it does not declare`)
  // the first method is the one an account links with by default: static keys before OAuth apps
  const rank = (drafted: DraftedMethod) =>
    drafted.method.type !== "oauth2" ? 0 : drafted.method.grantType === "client_credentials" ? 1 : 2
  const ordered = methods.map((drafted, index) => ({ drafted, index }))
    .sort((a, b) => rank(a.drafted) - rank(b.drafted) || a.index - b.index)
    .map((entry) => entry.drafted)
  return { methods: ordered, notUnderstood, review, requestArgs, actions }
}

/** Top-level domains a provider's OAuth endpoint is likely on; any two-letter one is a country's. */
const COMMON_TLDS = new Set(["com", "net", "org", "io", "co", "ai", "app", "dev", "cloud", "info", "biz", "tech", "online", "site", "hr", "work", "jobs", "team", "software", "services", "solutions", "global", "systems", "digital", "eu", "asia", "example"])

/** `auth.example.com` yes; `app.rippling` (no known domain), `localhost` or an address no. */
const looksLikePublicHost = (host: string) => {
  const labels = host.toLowerCase().split(".")
  const tld = labels[labels.length - 1]!
  return labels.length >= 2 && !/^\d+$/.test(tld) && (tld.length === 2 || COMMON_TLDS.has(tld))
}

/** What every drafted OAuth 2.0 method starts with; keys left out when the document gives no value. */
const oauth2Base = (label: string, grantType: string, tokenUrl: string | undefined, scopes: ReadonlyArray<string>) => ({
  type: "oauth2",
  label,
  grantType,
  ...(tokenUrl === undefined ? {} : { tokenUrl }),
  ...(scopes.length === 0 ? {} : { scopes })
})

const extraConfig = (fields: ReadonlyArray<ConfigField>) => (fields.length === 0 ? {} : { configFields: fields })

const describeScheme = (scheme: SecurityScheme): string => {
  switch (scheme.kind) {
    case "apiKey":
      return `apiKey in ${scheme.in} ${scheme.parameterName}`
    case "http":
      return `http ${scheme.scheme}`
    case "oauth2":
      return `oauth2 ${scheme.flows.map((flow) => flow.kind).join(", ")}`
    case "other":
      return `${scheme.type}${scheme.detail === undefined ? "" : ` ${scheme.detail}`}`
  }
}

/**
 * The refresh action, when the document refreshes tokens elsewhere than at the token URL
 * (the engine refreshes at tokenUrl with the standard grant unless a method names an action).
 */
const refreshFor = (
  name: string,
  flow: OAuthFlow,
  tokenUrl: string | undefined,
  base: DraftedBaseUrl,
  actions: Array<Record<string, unknown>>,
  review: Array<string>
): string | undefined => {
  if (flow.refreshUrl === undefined) return undefined
  const refreshUrl = base.absolute(flow.refreshUrl).url
  if (refreshUrl === tokenUrl) return undefined
  const actionId = identifierOf(`${name}_refresh_token`, "refresh")
  review.push(`${name}: tokens are refreshed at ${flow.refreshUrl}, by the drafted ${actionId} action (a standard form POST); check its fields`)
  actions.push({
    actionId,
    actionType: "refresh_token",
    label: "Refresh the access token",
    description: `Refreshes the access token at the refresh URL the document gives (${flow.refreshUrl})`,
    steps: [{
      stepId: "refresh",
      stepFunction: {
        functionName: "request",
        parameters: {
          url: refreshUrl,
          method: "post",
          bodyType: "form",
          args: [
            { name: "grant_type", value: "refresh_token", in: "body" },
            { name: "refresh_token", value: "$.credentials.refreshToken", in: "body" },
            { name: "client_id", value: "$.credentials.clientId", in: "body" },
            { name: "client_secret", value: "$.credentials.clientSecret", in: "body" }
          ]
        }
      }
    }],
    result: { data: "$.steps.refresh.output.data" }
  })
  return actionId
}
