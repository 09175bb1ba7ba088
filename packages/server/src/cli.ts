import { NodeRuntime } from "@effect/platform-node"
import { ApiKeyScope } from "@switchyard/api"
import { Cause, Console, Data, Effect, Layer, Logger, LogLevel, Option, Redacted, Schema } from "effect"
import { parseArgs } from "node:util"
import { ApiKeys } from "./Auth/ApiKeys.js"
import { SwitchyardConfig } from "./Config.js"
import { ProjectsRepo } from "./Projects/ProjectsRepo.js"
import { SqlShared } from "./Sql.js"

const usage = `Usage: pnpm switchyard <command>

  projects list
  projects create --name <name> [--organization <organization-id>]   (or: projects create <name>)
  projects immutable-versioning <project-id> on|off
  keys list [--project <project-id>]
  keys create [--project <project-id>] [--scope full_access|read_only|accounts|actions] [--name <name>]
      (--project may be left out while there is only one project)
  keys revoke <key-id>

Uses the same database as the server (DATABASE_URL, or the embedded one in SWITCHYARD_DATA_DIR,
shared with a running server).`

class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

const parseScope = (raw: string) =>
  Schema.decodeUnknown(ApiKeyScope)(raw.trim().toLowerCase().replace(/[\s-]+/g, "_")).pipe(
    Effect.mapError(() => new UsageError({ message: `unknown scope "${raw}": use full_access, read_only, accounts or actions` }))
  )

const table = (rows: ReadonlyArray<Record<string, string>>) => {
  if (rows.length === 0) return "(none)"
  const headers = Object.keys(rows[0]!)
  const widths = headers.map((header) => Math.max(header.length, ...rows.map((row) => row[header]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(headers), ...rows.map((row) => line(headers.map((header) => row[header]!)))].join("\n")
}

const run = (argv: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { positionals, values } = yield* Effect.try({
      try: () =>
        parseArgs({
          args: [...argv],
          allowPositionals: true,
          options: {
            project: { type: "string" },
            organization: { type: "string" },
            scope: { type: "string" },
            name: { type: "string" },
            help: { type: "boolean", short: "h" }
          }
        }),
      catch: (error) => new UsageError({ message: (error as Error).message })
    })
    const [group, command, ...rest] = positionals
    if (values.help === true || group === undefined) return yield* Console.log(usage)
    const projects = yield* ProjectsRepo
    const apiKeys = yield* ApiKeys

    const requireProject = (id: string | undefined) =>
      Effect.gen(function*() {
        if (id === undefined) return yield* onlyProject
        const project = yield* projects.findProject(id)
        if (Option.isNone(project)) return yield* new UsageError({ message: `no project has id ${id}` })
        return project.value
      })

    /** Without --project: the only project, named on stderr so the output says whose key it is. */
    const onlyProject = Effect.gen(function*() {
      const all = yield* projects.listProjects
      if (all.length !== 1) {
        return yield* new UsageError({
          message: all.length === 0
            ? "no project exists yet: start the server once first"
            : `--project <project-id> is required: there are ${all.length} projects (see: projects list)`
        })
      }
      yield* Console.error(`switchyard: using the only project, ${all[0]!.id} (${all[0]!.name})`)
      return all[0]!
    })

    switch (`${group} ${command ?? ""}`) {
      case "projects list": {
        const rows = yield* projects.listProjects
        return yield* Console.log(table(rows.map((p) => ({
          id: p.id,
          organization: p.organization_id,
          name: p.name,
          immutable: p.immutable_versioning ? "on" : "off",
          created: p.created_at.toISOString()
        }))))
      }
      case "projects create": {
        const positional = rest.join(" ").trim()
        if (values.name !== undefined && positional.length > 0) {
          return yield* new UsageError({ message: "give the project name once: --name <name> or projects create <name>" })
        }
        const name = (values.name ?? positional).trim()
        if (name.length === 0) return yield* new UsageError({ message: "projects create needs a name (--name <name>)" })
        const organizationId = values.organization !== undefined
          ? yield* projects.findOrganization(values.organization).pipe(
            Effect.flatMap(Option.match({
              onNone: () => new UsageError({ message: `no organization has id ${values.organization}` }),
              onSome: (organization) => Effect.succeed(organization.id)
            }))
          )
          : (yield* projects.listOrganizations)[0]?.id
        if (organizationId === undefined) {
          return yield* new UsageError({ message: "no organization exists yet: start the server once first" })
        }
        const project = yield* projects.createProject(organizationId, name)
        return yield* Console.log(`created project ${project.id} (${project.name}) in organization ${organizationId}`)
      }
      case "projects immutable-versioning": {
        const [projectId, setting] = rest
        if (projectId === undefined || (setting !== "on" && setting !== "off")) {
          return yield* new UsageError({ message: "usage: projects immutable-versioning <project-id> on|off" })
        }
        const project = yield* projects.setImmutableVersioning(projectId, setting === "on")
        if (Option.isNone(project)) return yield* new UsageError({ message: `no project has id ${projectId}` })
        return yield* Console.log(
          `immutable connector versioning is ${setting} for project ${projectId}` +
            (setting === "off" ? " (force may now replace a registered version's content)" : "")
        )
      }
      case "keys list": {
        const projectId = values.project === undefined ? Option.none() : Option.some((yield* requireProject(values.project)).id)
        const rows = yield* apiKeys.list(projectId)
        return yield* Console.log(table(rows.map((k) => ({
          id: k.id,
          project: k.project_id,
          name: k.name,
          scope: k.scope,
          prefix: `${k.key_prefix}…`,
          created: k.created_at.toISOString(),
          revoked: k.revoked_at?.toISOString() ?? "-"
        }))))
      }
      case "keys create": {
        const project = yield* requireProject(values.project)
        const scope = yield* parseScope(values.scope ?? "full_access")
        const { id, key } = yield* apiKeys.create(project.id, values.name ?? "cli", scope)
        return yield* Console.log(
          `created ${scope} key ${id} for project ${project.id}; shown only this once:\n\n  ${Redacted.value(key)}\n`
        )
      }
      case "keys revoke": {
        const id = rest[0]
        if (id === undefined) return yield* new UsageError({ message: "keys revoke needs a key id" })
        const revoked = yield* apiKeys.revoke(id)
        if (Option.isNone(revoked)) return yield* new UsageError({ message: `no active key has id ${id}` })
        return yield* Console.log(`revoked key ${id}`)
      }
      default:
        return yield* new UsageError({ message: `unknown command "${positionals.join(" ")}"` })
    }
  })

const CliLive = Layer.mergeAll(ProjectsRepo.Default, ApiKeys.Default).pipe(
  Layer.provide(SqlShared),
  Layer.provide(SwitchyardConfig.Default)
)

/** What went wrong: the message of a failure, else the whole cause (a defect, e.g. no database). */
const describe = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure) && typeof failure.value === "object" && failure.value !== null && "message" in failure.value) {
    return String(failure.value.message)
  }
  return Cause.pretty(cause)
}

// Every error ends with the usage and a non-zero exit code; an interruption (Ctrl-C) stays one.
run(process.argv.slice(2)).pipe(
  Effect.provide(CliLive),
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Console.error(`switchyard: ${describe(cause)}\n\n${usage}`).pipe(
        Effect.zipRight(Effect.sync(() => {
          process.exitCode = 1
        }))
      )
  ),
  Logger.withMinimumLogLevel(LogLevel.Warning),
  NodeRuntime.runMain({ disableErrorReporting: false })
)
