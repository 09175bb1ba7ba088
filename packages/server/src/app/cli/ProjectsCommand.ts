import { Args, Command, HelpDoc, Options } from "@effect/cli"
import { Console, Effect, Either, Option } from "effect"
import { parseFrameOrigin } from "../../edge/connectPage/parseFrameOrigin.js"
import { ProjectsRepo } from "../../features/projects/ProjectsRepo.js"
import { DatabaseLive, table, UsageError } from "./Support.js"

const describeFrameOrigins = (origins: ReadonlyArray<string>) => origins.length === 0 ? "none" : origins.join(",")

const list = Command.make("list", {}, () =>
  Effect.gen(function*() {
    const rows = yield* (yield* ProjectsRepo).listProjects
    yield* Console.log(table(rows.map((p) => ({
      id: p.id,
      organization: p.organization_id,
      name: p.name,
      immutable: p.immutable_versioning ? "on" : "off",
      connect_frame_origins: describeFrameOrigins(p.connect_frame_origins),
      log_bodies: p.request_log_bodies ? "on" : "off",
      created: p.created_at.toISOString()
    }))))
  })).pipe(Command.withDescription("List every project."), Command.provide(DatabaseLive))

/** The name as --name or as the words after `create` (the older form), never both. */
const projectName = (option: Option.Option<string>, words: ReadonlyArray<string>) => {
  const positional = words.join(" ").trim()
  if (Option.isSome(option) && positional.length > 0) {
    return new UsageError({ message: "give the project name once: --name <name> or projects create <name>" })
  }
  const name = Option.getOrElse(option, () => positional).trim()
  return name.length === 0
    ? new UsageError({ message: "projects create needs a name (--name <name>)" })
    : Effect.succeed(name)
}

/**
 * The older form, `projects create Old Style`. Its words would also swallow a mistyped option
 * (`--colour red`), so a word that starts with "-" is refused as the unknown option it is.
 */
const nameWords = Args.text({ name: "name" }).pipe(
  Args.repeated,
  Args.mapEffect((words) => {
    const option = words.find((word) => word.startsWith("-"))
    return option === undefined ? Effect.succeed(words) : Effect.fail(HelpDoc.p(`Unknown option '${option}'`))
  }),
  Args.withDescription("The name, instead of --name.")
)

const create = Command.make("create", {
  name: Options.text("name").pipe(
    Options.withPseudoName("name"),
    Options.optional,
    Options.withDescription("The project's name.")
  ),
  organization: Options.text("organization").pipe(
    Options.withPseudoName("organization-id"),
    Options.optional,
    Options.withDescription("The organization's id (default: the first organization).")
  ),
  words: nameWords
}, (input) =>
  Effect.gen(function*() {
    const projects = yield* ProjectsRepo
    const name = yield* projectName(input.name, input.words)
    const organizationId = yield* Option.match(input.organization, {
      onNone: () => projects.listOrganizations.pipe(Effect.map((all) => all[0]?.id)),
      onSome: (id) =>
        projects.findOrganization(id).pipe(Effect.flatMap(Option.match({
          onNone: () => new UsageError({ message: `no organization has id ${id}` }),
          onSome: (organization) => Effect.succeed(organization.id)
        })))
    })
    if (organizationId === undefined) {
      return yield* new UsageError({ message: "no organization exists yet: start the server once first" })
    }
    const project = yield* projects.createProject(organizationId, name)
    yield* Console.log(`created project ${project.id} (${project.name}) in organization ${organizationId}`)
  })).pipe(Command.withDescription("Create a project."), Command.provide(DatabaseLive))

const immutableVersioning = Command.make("immutable-versioning", {
  projectId: Args.text({ name: "project-id" }),
  enabled: Args.choice([["on", true], ["off", false]], { name: "setting" })
}, ({ enabled, projectId }) =>
  Effect.gen(function*() {
    const project = yield* (yield* ProjectsRepo).setImmutableVersioning(projectId, enabled)
    if (Option.isNone(project)) return yield* new UsageError({ message: `no project has id ${projectId}` })
    yield* Console.log(
      `immutable connector versioning is ${enabled ? "on" : "off"} for project ${projectId}` +
        (enabled ? "" : " (force may now replace a registered version's content)")
    )
  })).pipe(
    Command.withDescription(
      "Turn immutable connector versioning on or off: while on, force cannot replace a registered version's content."
    ),
    Command.provide(DatabaseLive)
  )

const requestLogBodies = Command.make("request-log-bodies", {
  projectId: Args.text({ name: "project-id" }),
  enabled: Args.choice([["on", true], ["off", false]], { name: "setting" })
}, ({ enabled, projectId }) =>
  Effect.gen(function*() {
    const project = yield* (yield* ProjectsRepo).setRequestLogBodies(projectId, enabled)
    if (Option.isNone(project)) return yield* new UsageError({ message: `no project has id ${projectId}` })
    yield* Console.log(
      `request log bodies are ${enabled ? "on" : "off"} for project ${projectId}` +
        (enabled ? " (provider bodies are kept redacted, up to 16,384 characters each, from the next runs on)" : "")
    )
  })).pipe(
    Command.withDescription(
      "Keep provider request and response bodies in the request log (redacted, 16,384 characters each at most), or stop."
    ),
    Command.provide(DatabaseLive)
  )

/** The origins as given, normalized and without repeats; the first one that is no origin fails. */
const frameOriginsOf = (given: ReadonlyArray<string>) =>
  Effect.forEach(given, (text) =>
    Either.match(parseFrameOrigin(text), {
      onLeft: (message) => new UsageError({ message: `--connect-frame-origin ${message}` }),
      onRight: Effect.succeed
    })).pipe(Effect.map((origins) => [...new Set(origins)]))

const update = Command.make("update", {
  projectId: Args.text({ name: "project-id" }),
  frameOrigins: Options.text("connect-frame-origin").pipe(
    Options.withPseudoName("origin"),
    Options.repeated,
    Options.withDescription(
      "An origin (scheme://host[:port]) that may embed the hosted connect page in a frame; repeat it for several. " +
        "The list given replaces the project's list."
    )
  ),
  clearFrameOrigins: Options.boolean("clear-connect-frame-origins").pipe(
    Options.withDescription("Allow no origin to frame the connect page (the default).")
  )
}, ({ clearFrameOrigins, frameOrigins, projectId }) =>
  Effect.gen(function*() {
    if (clearFrameOrigins && frameOrigins.length > 0) {
      return yield* new UsageError({
        message: "give either --connect-frame-origin or --clear-connect-frame-origins, not both"
      })
    }
    if (!clearFrameOrigins && frameOrigins.length === 0) {
      return yield* new UsageError({
        message: "nothing to update: give --connect-frame-origin <origin> (repeatable) or --clear-connect-frame-origins"
      })
    }
    const origins = yield* frameOriginsOf(frameOrigins)
    const project = yield* (yield* ProjectsRepo).setConnectFrameOrigins(projectId, origins)
    if (Option.isNone(project)) return yield* new UsageError({ message: `no project has id ${projectId}` })
    yield* Console.log(
      origins.length === 0
        ? `no origin may frame the connect page of project ${projectId}`
        : `the connect page of project ${projectId} may be framed by ${origins.join(", ")}`
    )
  })).pipe(
    Command.withDescription(
      "Change a project's settings: the origins that may embed its hosted connect page (CSP frame-ancestors)."
    ),
    Command.provide(DatabaseLive)
  )

export const projectsCommand = Command.make("projects").pipe(
  Command.withDescription("List, create and configure projects."),
  Command.withSubcommands([list, create, update, immutableVersioning, requestLogBodies])
)
