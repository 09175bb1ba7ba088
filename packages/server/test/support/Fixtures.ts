import { HttpApiClient, HttpClient, HttpClientResponse } from "@effect/platform"
import { Api, type ApiKeyScope, type CreateAccount } from "@switchyard/api"
import { makeClient } from "@switchyard/client"
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { ApiKeys } from "../../src/features/auth/ApiKeys.js"
import { ProjectsRepo } from "../../src/features/projects/ProjectsRepo.js"
import { BOOTSTRAP_KEY } from "./TestServer.js"
import { type WireResponse, wireResponse, withKey } from "./Wire.js"

/** A client of the test server that authenticates with `apiKey`. */
export const clientFor = (apiKey: string) => makeClient({ apiKey })

export const bootstrapClient = clientFor(BOOTSTRAP_KEY)

/**
 * The derived client (`HttpApiClient.make(Api)`) authenticating with `apiKey`, which also keeps
 * the last response as the wire carried it: a call goes through the typed client while the
 * test still checks the exact error body and headers (calls one at a time).
 */
export const recordingClientFor = (apiKey: string) =>
  Effect.gen(function*() {
    let last: WireResponse | undefined
    // The body can be read once: keep its bytes and hand the client a response over them.
    const record = (response: HttpClientResponse.HttpClientResponse) =>
      Effect.map(response.arrayBuffer, (bytes) => {
        last = wireResponse(response.status, response.headers, new TextDecoder().decode(bytes))
        const body = bytes.byteLength === 0 ? null : bytes
        return HttpClientResponse.fromWeb(response.request, new Response(body, { status: response.status, headers: response.headers }))
      })
    const client = yield* HttpApiClient.make(Api, {
      transformClient: (http) =>
        http.pipe(HttpClient.mapRequest(withKey(apiKey)), HttpClient.transformResponse(Effect.flatMap(record)))
    })
    /** The response of the last call, once: a call that got none cannot see an older one. */
    const takeResponse = (): WireResponse => {
      const taken = last
      last = undefined
      if (taken === undefined) throw new Error("the call received no response")
      return taken
    }
    return { client, takeResponse }
  })

/** The bootstrapped default project (the one BOOTSTRAP_KEY belongs to). */
export const defaultProjectId = Effect.gen(function*() {
  const projects = yield* ProjectsRepo
  return (yield* projects.listProjects)[0]!.id
})

/** A key with `scope` in `projectId`, returned as its secret. */
export const keyFor = (projectId: string, scope: ApiKeyScope) =>
  Effect.gen(function*() {
    const apiKeys = yield* ApiKeys
    const { id, key } = yield* apiKeys.create(projectId, `test ${scope}`, scope)
    return { id, key: Redacted.value(key) }
  })

/** Another organization with its own project and a Full Access key. */
export const otherProject = Effect.gen(function*() {
  const projects = yield* ProjectsRepo
  const organization = yield* projects.createOrganization("Other organization")
  const project = yield* projects.createProject(organization.id, "Other project")
  const { key } = yield* keyFor(project.id, "full_access")
  return { project, key }
})

/**
 * Credentials with the real config fields of each built-in connector's method (links are
 * checked against them); any other key is taken for a `connectorYaml` connector (`token`).
 */
const credentialsOf: Record<string, Record<string, string>> = {
  greenhouse: { apiKey: "gh-super-secret-value" },
  bamboohr: { apiKey: "bh-super-secret-value", subdomain: "acme" },
  talentlms: { apiKey: "tl-super-secret-value", domain: "acme" },
  lever: { accessToken: "lv-super-secret-value" }
}

export const accountBody = (overrides: Partial<CreateAccount> = {}): CreateAccount => ({
  connector_key: "greenhouse",
  name: "Acme Recruiting",
  owner_id: "owner-1",
  owner_name: "Ada Lovelace",
  owner_username: "ada",
  credentials: credentialsOf[overrides.connector_key ?? "greenhouse"] ?? { token: "custom-super-secret-value" },
  settings: { subdomain: "acme" },
  ...overrides
})

/** A new project in the default organization with a Full Access key: a clean slate per test. */
export const freshProject = Effect.gen(function*() {
  const projects = yield* ProjectsRepo
  const organization = (yield* projects.listOrganizations)[0]!
  const project = yield* projects.createProject(organization.id, "Test project")
  const { key } = yield* keyFor(project.id, "full_access")
  return { projectId: project.id, key, client: yield* clientFor(key) }
})

type ListResult<A, P> = ReadonlyArray<A> | P

/** The envelope of a paged list answer (fails the test on a bare array). */
export const asPage = <A, P extends { readonly data: ReadonlyArray<A> }>(result: ListResult<A, P>): P => {
  if (Array.isArray(result)) throw new Error("expected a paginated envelope, got a bare array")
  return result as P
}

/** The records of a list answer, bare or paged. */
export const records = <A, P extends { readonly data: ReadonlyArray<A> }>(result: ListResult<A, P>): ReadonlyArray<A> =>
  Array.isArray(result) ? (result as ReadonlyArray<A>) : (result as P).data

/** How many accounts a project has in storage (to prove a refused request wrote nothing). */
export const countAccounts = (projectId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM accounts WHERE project_id = ${projectId}`
    return Number(row!.n)
  }).pipe(Effect.orDie)
