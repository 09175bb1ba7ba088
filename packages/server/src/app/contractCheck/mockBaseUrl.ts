/*
 * Where a contract check points a connector: the mock's address in place of the provider's
 * server, keeping the rest of the connector's base URL. The document's paths are relative to
 * one of its servers (`https://{companyDomain}.bamboohr.com` + `/api/v1/employees`), so the
 * part of the connector's base URL after the server it names (`/api/v1`) is what the mock
 * must see before each path. A connector whose base URL names none of the document's servers
 * is a finding of its own: it would call another host, or another API version, than the
 * document describes.
 */

export interface MockBase {
  /** The path the connector puts before each action's URL, relative to the document's server. */
  readonly prefix: string
  /** The document's server the connector's base URL matched, as the document writes it. */
  readonly server: string | undefined
  /** Set when the base URL matches none of the servers: what is wrong. */
  readonly problem: string | undefined
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The document's server URLs: OpenAPI 3 `servers`, or Swagger 2's scheme, host and base path. */
export const documentServers = (document: Record<string, unknown>): ReadonlyArray<string> => {
  if (Array.isArray(document.servers)) {
    return document.servers.flatMap((server) =>
      typeof server === "object" && server !== null && typeof (server as { url?: unknown }).url === "string"
        ? [(server as { url: string }).url]
        : []
    )
  }
  if (typeof document.host === "string") {
    const schemes = Array.isArray(document.schemes) && document.schemes.length > 0 ? document.schemes : ["https"]
    const basePath = typeof document.basePath === "string" ? document.basePath : ""
    // Swagger 2 has one host; SAP's documents list their production servers as `x-servers` beside it
    const extra = Array.isArray(document["x-servers"]) ? documentServers({ servers: document["x-servers"] }) : []
    return [`${String(schemes[0])}://${document.host}${basePath}`, ...extra]
  }
  return typeof document.basePath === "string" ? [document.basePath] : []
}

const stripSlash = (path: string) => path.replace(/\/+$/, "")

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

/** The servers the document's paths and operations name for themselves (OpenAPI 3's `servers` below the top). */
export const operationServers = (document: Record<string, unknown>): ReadonlyArray<string> => {
  const paths = document.paths
  if (typeof paths !== "object" || paths === null) return []
  const found: Array<string> = []
  for (const item of Object.values(paths)) {
    if (typeof item !== "object" || item === null) continue
    const record = item as Record<string, unknown>
    found.push(...documentServers({ servers: record.servers }))
    for (const method of HTTP_METHODS) {
      const operation = record[method]
      if (typeof operation === "object" && operation !== null) {
        found.push(...documentServers({ servers: (operation as Record<string, unknown>).servers }))
      }
    }
  }
  return [...new Set(found)]
}

/**
 * Where the mock sits in the connector's base URL; `baseUrl` may interpolate credentials
 * (`${credentials.subdomain}`). The base URL must be on one of the document's own servers;
 * `withOperationServers` also allows those its paths and operations name (for a connector's
 * named `servers`, such as Personio's career site, which only its feed operation is on).
 */
export const mockBase = (
  baseUrl: string | undefined,
  document: Record<string, unknown>,
  withOperationServers = false
): MockBase => {
  const servers = withOperationServers
    ? [...new Set([...documentServers(document), ...operationServers(document)])]
    : documentServers(document)
  // without servers a document's paths hang off whatever base the provider serves them from
  if (baseUrl === undefined || servers.length === 0) return { prefix: "", server: undefined, problem: undefined }
  // a credential interpolated into the base URL stands for whatever a server variable allows
  const concrete = baseUrl.replace(/\$\{[^}]*\}/g, "variable")
  for (const server of servers) {
    // `{name}` is a server variable; `<name>` a placeholder some documents write instead (Workday's
    // `https://<tenantHostname>/...`): each stands for one host or path segment
    const pattern = escape(stripSlash(server)).replace(/\\\{[^}]*\\\}|<[^>/]*>/g, "[^/]+")
    const absolute = /^[a-z]+:\/\//i.test(server)
    const match = absolute
      ? new RegExp(`^${pattern}(?=/|$)`, "i").exec(concrete)
      : new RegExp(`^[a-z]+://[^/]+${pattern}(?=/|$)`, "i").exec(concrete)
    if (match !== null) return { prefix: stripSlash(concrete.slice(match[0].length)), server, problem: undefined }
  }
  const path = stripSlash(concrete.replace(/^[a-z]+:\/\/[^/]+/i, ""))
  return {
    prefix: path,
    server: undefined,
    problem: `the connector's base URL ${baseUrl} is on none of the document's servers (${servers.join(", ")})`
  }
}

/**
 * Where the mock sits for a connector checked against several documents of one provider (SAP's,
 * one per API area): the base URL must be on a server of each, with the same path after it, since
 * one base URL serves every action. Documents whose servers differ (one service per base URL, as
 * Workday's are) cannot share it: that is reported as the base URL's problem.
 */
export const mockBaseOf = (
  baseUrl: string | undefined,
  documents: ReadonlyArray<Record<string, unknown>>
): MockBase => {
  const bases = documents.map((document) => mockBase(baseUrl, document))
  const first = bases[0] ?? { prefix: "", server: undefined, problem: undefined }
  const problem = bases.find((base) => base.problem !== undefined)?.problem
  if (problem !== undefined) return { ...first, problem }
  const prefixes = [...new Set(bases.map((base) => base.prefix))]
  if (prefixes.length > 1) {
    return {
      ...first,
      problem: `the connector's base URL ${baseUrl} puts the documents' paths under different prefixes (${
        prefixes.map((prefix) => prefix === "" ? "none" : prefix).join(", ")
      }): one base URL cannot serve them all`
    }
  }
  return first
}

/** Where the mock sits for a connector's named server: on a server (any, operations' too) of one of the documents. */
export const mockServerBase = (
  name: string,
  url: string,
  documents: ReadonlyArray<Record<string, unknown>>
): MockBase => {
  const bases = documents.map((document) => mockBase(url, document, true))
  const found = bases.find((base) => base.problem === undefined)
  if (found !== undefined) return found
  const servers = [...new Set(documents.flatMap((document) => [...documentServers(document), ...operationServers(document)]))]
  return {
    prefix: bases[0]?.prefix ?? "",
    server: undefined,
    problem: `the connector's server ${name} (${url}) is on none of the document's servers (${servers.join(", ")})`
  }
}

/** Each of the connector's named servers with where the mock sits for it. */
export const mockServerBases = (
  servers: Readonly<Record<string, { readonly url: string }>> | undefined,
  documents: ReadonlyArray<Record<string, unknown>>
): ReadonlyArray<{ readonly name: string; readonly base: MockBase }> =>
  Object.entries(servers ?? {}).map(([name, server]) => ({ name, base: mockServerBase(name, server.url, documents) }))
