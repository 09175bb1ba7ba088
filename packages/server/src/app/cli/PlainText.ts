import { Console, Effect } from "effect"

/*
 * @effect/cli colours its help and errors with ANSI escapes whether or not it writes to a
 * terminal. Piped into a file, a pager or a test, those are noise: drop them there, and
 * wherever NO_COLOR is set (https://no-color.org).
 */

const ansiStyle = /\u001b\[[0-9;]*m/g

const wantsPlain = (stream: NodeJS.WriteStream) =>
  stream.isTTY !== true || (process.env["NO_COLOR"] ?? "") !== ""

const plainWhen = (plain: boolean, write: (...args: ReadonlyArray<unknown>) => Effect.Effect<void>) =>
  plain
    ? (...args: ReadonlyArray<unknown>) =>
      write(...args.map((arg) => typeof arg === "string" ? arg.replace(ansiStyle, "") : arg))
    : write

/** Runs `effect` with a Console whose log and error leave out colours where nobody sees them. */
export const withPlainTextOffTerminal = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Console.consoleWith((console) =>
    Effect.withConsole(effect, {
      ...console,
      log: plainWhen(wantsPlain(process.stdout), console.log),
      error: plainWhen(wantsPlain(process.stderr), console.error)
    })
  )
