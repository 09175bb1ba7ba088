import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { ApiKeyScope } from "@switchyard/api"
import { Console, Effect, Option, Redacted, Schema } from "effect"
import { ApiKeys } from "../../features/auth/ApiKeys.js"
import { ProjectsRepo } from "../../features/projects/ProjectsRepo.js"
import { DatabaseLive, table, UsageError } from "./Support.js"

/** Forgiving on purpose: "Read-Only" and "read only" mean read_only. */
const scopeOption = Options.text("scope").pipe(
  Options.withPseudoName("full_access|read_only|accounts|actions"),
  Options.mapEffect((raw) =>
    Schema.decodeUnknown(ApiKeyScope)(raw.trim().toLowerCase().replace(/[\s-]+/g, "_")).pipe(
      Effect.mapError(() =>
        ValidationError.invalidValue(
          HelpDoc.p(`unknown scope "${raw}": use full_access, read_only, accounts or actions`)
        )
      )
    )
  ),
  Options.withDefault<ApiKeyScope>("full_access"),
  Options.withDescription("What the key may do (default: full_access).")
)

const projectOption = Options.text("project").pipe(
  Options.withPseudoName("project-id"),
  Options.optional,
  Options.withDescription("The project's id; may be left out while there is only one project.")
)

/** The project --project names; without it the only project, named on stderr so the output says whose key it is. */
const requireProject = (id: Option.Option<string>) =>
  Effect.gen(function*() {
    const projects = yield* ProjectsRepo
    if (Option.isSome(id)) {
      const project = yield* projects.findProject(id.value)
      if (Option.isNone(project)) return yield* new UsageError({ message: `no project has id ${id.value}` })
      return project.value
    }
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

const list = Command.make("list", {
  project: Options.text("project").pipe(
    Options.withPseudoName("project-id"),
    Options.optional,
    Options.withDescription("Only this project's keys.")
  )
}, ({ project }) =>
  Effect.gen(function*() {
    const projectId = Option.isSome(project) ? Option.some((yield* requireProject(project)).id) : Option.none()
    const rows = yield* (yield* ApiKeys).list(projectId)
    yield* Console.log(table(rows.map((k) => ({
      id: k.id,
      project: k.project_id,
      name: k.name,
      scope: k.scope,
      prefix: `${k.key_prefix}…`,
      created: k.created_at.toISOString(),
      revoked: k.revoked_at?.toISOString() ?? "-"
    }))))
  })).pipe(Command.withDescription("List API keys (revoked ones too)."), Command.provide(DatabaseLive))

const create = Command.make("create", {
  project: projectOption,
  scope: scopeOption,
  name: Options.text("name").pipe(
    Options.withPseudoName("name"),
    Options.withDefault("cli"),
    Options.withDescription("A name to tell the key by (default: cli).")
  )
}, (input) =>
  Effect.gen(function*() {
    const project = yield* requireProject(input.project)
    const { id, key } = yield* (yield* ApiKeys).create(project.id, input.name, input.scope)
    yield* Console.log(
      `created ${input.scope} key ${id} for project ${project.id}; shown only this once:\n\n  ${Redacted.value(key)}\n`
    )
  })).pipe(
    Command.withDescription("Create an API key and print it (the only time it is shown)."),
    Command.provide(DatabaseLive)
  )

const revoke = Command.make("revoke", { id: Args.text({ name: "key-id" }) }, ({ id }) =>
  Effect.gen(function*() {
    const revoked = yield* (yield* ApiKeys).revoke(id)
    if (Option.isNone(revoked)) return yield* new UsageError({ message: `no active key has id ${id}` })
    yield* Console.log(`revoked key ${id}`)
  })).pipe(
    Command.withDescription("Revoke an API key: requests with it fail from now on."),
    Command.provide(DatabaseLive)
  )

export const keysCommand = Command.make("keys").pipe(
  Command.withDescription("List, create and revoke API keys."),
  Command.withSubcommands([list, create, revoke])
)
