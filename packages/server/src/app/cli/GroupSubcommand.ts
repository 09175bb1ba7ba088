import { Command, HelpDoc, ValidationError } from "@effect/cli"
import { Console, Effect, HashMap, HashSet } from "effect"

/*
 * @effect/cli 0.77 reports a wrong subcommand of a group (`keys teleport`) as a wrong
 * subcommand of the root ("Invalid subcommand for switchyard - use one of 'projects', 'keys'"),
 * which blames the word that was right. This check runs first and names the group's own
 * subcommands instead, in the library's wording and with its error type.
 */

/** Fails, having printed why, when `args` start with a group and then a word that is none of its subcommands. */
export const checkGroupSubcommand = (
  groups: ReadonlyArray<Command.Command<any, any, any, any>>,
  args: ReadonlyArray<string>
) => {
  // lower case: the library matches command names regardless of case
  const [groupWord = "", subcommandWord] = args.map((arg) => arg.toLowerCase())
  const group = groups.find((command) => HashSet.has(Command.getNames(command), groupWord))
  if (group === undefined || subcommandWord === undefined || subcommandWord.startsWith("-")) return Effect.void
  const subcommands = Array.from(HashMap.keys(Command.getSubcommands(group))).sort()
  if (subcommands.includes(subcommandWord)) return Effect.void
  const message = `Invalid subcommand for ${groupWord} - use one of ${subcommands.map((name) => `'${name}'`).join(", ")}`
  return Console.error(`${message}\n`).pipe(
    Effect.zipRight(Effect.fail(ValidationError.commandMismatch(HelpDoc.p(message))))
  )
}
