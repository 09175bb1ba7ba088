import { Command, ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Cause, Console, Effect, Logger, LogLevel, Option } from "effect"
import packageJson from "../package.json" with { type: "json" }
import { connectorsCommand } from "./app/cli/ConnectorsCommand.js"
import { checkGroupSubcommand } from "./app/cli/GroupSubcommand.js"
import { keysCommand } from "./app/cli/KeysCommand.js"
import { withPlainTextOffTerminal } from "./app/cli/PlainText.js"
import { projectsCommand } from "./app/cli/ProjectsCommand.js"
import { sandboxCommand } from "./app/cli/SandboxCommand.js"

/*
 * The admin CLI, `switchyard <command>`: the installed package's binary, and in a clone the
 * root's `pnpm --silent switchyard` (the README names it `switchyard` with a shell function).
 * @effect/cli parses the command line and gives --help, --version and --completions; each
 * command group lives in ./cli/.
 */

const switchyard = Command.make("switchyard").pipe(
  Command.withDescription(
    "Administers Switchyard's projects and API keys in the server's database (DATABASE_URL, or the embedded one in " +
      "SWITCHYARD_DATA_DIR, shared with a running server), and drafts connectors from providers' OpenAPI documents " +
      "(offline). `switchyard sandbox <provider>` serves a mock of a provider from its OpenAPI document. The " +
      "installed binary also runs `switchyard start` (the server) and `switchyard sandbox` alone (the simulated " +
      "providers), configured through the environment."
  ),
  Command.withSubcommands([projectsCommand, keysCommand, connectorsCommand, sandboxCommand])
)

/** Printed after every error: where to read what the command line should have been. */
const usage = "Usage: switchyard <command>   (switchyard --help lists the commands; " +
  "add --help after a command for its options)"

/** What went wrong: the message of a failure, else the whole cause (a defect, e.g. no database). */
const describe = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure) && typeof failure.value === "object" && failure.value !== null && "message" in failure.value) {
    return String(failure.value.message)
  }
  return Cause.pretty(cause)
}

/** @effect/cli has already printed what was wrong with the command line; other errors are ours to print. */
const alreadyPrinted = (cause: Cause.Cause<unknown>) =>
  Option.exists(Cause.failureOption(cause), ValidationError.isValidationError)

// Every error ends with the usage and a non-zero exit code; an interruption (Ctrl-C) stays one.
checkGroupSubcommand([projectsCommand, keysCommand, connectorsCommand], process.argv.slice(2)).pipe(
  Effect.zipRight(Command.run(switchyard, { name: "switchyard", version: packageJson.version })(process.argv)),
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Console.error(alreadyPrinted(cause) ? usage : `switchyard: ${describe(cause)}\n\n${usage}`).pipe(
        Effect.zipRight(Effect.sync(() => {
          process.exitCode = 1
        }))
      )
  ),
  withPlainTextOffTerminal,
  Effect.provide(NodeContext.layer),
  Logger.withMinimumLogLevel(LogLevel.Warning),
  NodeRuntime.runMain({ disableErrorReporting: false })
)
