import { SqlClient } from "@effect/sql"
import { Console, Effect, Option, Redacted } from "effect"
import { ApiKeys } from "../features/auth/ApiKeys.js"
import { SwitchyardConfig } from "../platform/Config.js"
import { DEFAULT_ORGANIZATION, DEFAULT_PROJECT } from "../features/projects/defaultNames.js"
import { ProjectsRepo } from "../features/projects/ProjectsRepo.js"

/**
 * First start on an empty database: create the default organization and project and a
 * Full Access key, printed once (or register `SWITCHYARD_BOOTSTRAP_API_KEY` instead).
 * Runs under an advisory lock so two servers starting together bootstrap once.
 */
export const bootstrap = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* SwitchyardConfig
  const projects = yield* ProjectsRepo
  const apiKeys = yield* ApiKeys

  const created = yield* Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(hashtext('switchyard.bootstrap'))`
    const existing = yield* projects.listProjects
    const project = existing.length > 0
      ? { project: existing[0]!, fresh: false }
      : yield* projects.createOrganization(DEFAULT_ORGANIZATION).pipe(
        Effect.flatMap((organization) => projects.createProject(organization.id, DEFAULT_PROJECT)),
        Effect.map((project) => ({ project, fresh: true }))
      )
    if (Option.isSome(config.bootstrapApiKey)) {
      if (!(yield* apiKeys.isRegistered(config.bootstrapApiKey.value))) {
        yield* apiKeys.register(project.project.id, "bootstrap", "full_access", config.bootstrapApiKey.value)
        return { ...project, key: Option.none<Redacted.Redacted>(), registered: true }
      }
      return { ...project, key: Option.none<Redacted.Redacted>(), registered: false }
    }
    if (!project.fresh) return { ...project, key: Option.none<Redacted.Redacted>(), registered: false }
    const { key } = yield* apiKeys.create(project.project.id, "bootstrap", "full_access")
    return { ...project, key: Option.some(key), registered: false }
  }).pipe(sql.withTransaction, Effect.orDie)

  if (created.fresh) {
    yield* Effect.logInfo(`created ${DEFAULT_ORGANIZATION} and ${DEFAULT_PROJECT} (${created.project.id})`)
  }
  if (created.registered) {
    yield* Effect.logInfo("registered SWITCHYARD_BOOTSTRAP_API_KEY as a Full Access key")
  }
  if (Option.isSome(created.key)) {
    // Shown once, on the console and never in a log line: only its hash is stored.
    yield* Console.log(
      [
        "",
        "  Switchyard API key (Full Access) for the default project, shown only this once:",
        "",
        `    ${Redacted.value(created.key.value)}`,
        "",
        "  Use it as the Basic auth username with an empty password, e.g.",
        `    curl -u '${Redacted.value(created.key.value)}:' http://${config.host}:${config.port}/v2/accounts`,
        "",
        "  or paste it into the dashboard to sign in:",
        `    http://${config.host}:${config.port}/dashboard`,
        ""
      ].join("\n")
    )
  }
})
