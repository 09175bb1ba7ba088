import { HttpServer } from "@effect/platform"
import { Effect } from "effect"
import { freshProject } from "./Fixtures.js"
import { SandboxProviders, sandboxGreenhouseAccount } from "./SandboxLayer.js"

/**
 * A fresh project with a Greenhouse account on the sandbox, for plain `fetch` against the
 * server's real port (what any HTTP client sees, not our derived client): the origin, and
 * the headers that authenticate as the project and name the account.
 */
export const greenhouseOverFetch = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const account = yield* project.client.accounts.create_account({
    payload: sandboxGreenhouseAccount(sandbox)
  })
  const address = (yield* HttpServer.HttpServer).address
  const origin = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
  const headers = {
    authorization: `Basic ${Buffer.from(`${project.key}:`).toString("base64")}`,
    "x-account-id": account.id
  }
  return { sandbox, project, account, origin, headers }
})
