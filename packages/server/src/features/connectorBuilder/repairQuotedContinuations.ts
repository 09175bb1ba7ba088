/*
 * Some generated YAML documents (Gusto's, for one) continue a quoted value on lines indented
 * less than its key, down to column 0:
 *
 *     description: 'Must be 2015 or later.
 *
 *   '
 *
 * YAML forbids it and the `yaml` package rejects the rest of the document; PyYAML, which
 * wrote many of these files, reads it. This repair indents such continuation lines under
 * their key, so the text reads as its author's parser read it. It runs only when the
 * document does not parse as it is.
 */

/** Where a single-quoted value closes in `text` (`''` is an escaped quote), or -1. */
const singleClose = (text: string, from: number) => {
  for (let i = from; i < text.length; i++) {
    if (text[i] !== "'") continue
    if (text[i + 1] === "'") {
      i++
      continue
    }
    return i
  }
  return -1
}

/** Where a double-quoted value closes in `text` (a backslash escapes), or -1. */
const doubleClose = (text: string, from: number) => {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++
    else if (text[i] === '"') return i
  }
  return -1
}

/** A key (or list item) whose value opens a quote: indentation, and the text after the quote. */
const OPENING = /^(\s*)(?:- +)?(?:[^\s#'"][^#'"]*?|'[^']*'|"[^"]*"):[ \t]+(['"])(.*)$/

export const repairQuotedContinuations = (text: string): { readonly text: string; readonly repaired: number } => {
  const lines = text.split("\n")
  let repaired = 0
  let open: { readonly quote: string; readonly indent: number } | undefined
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (open !== undefined) {
      const close = open.quote === "'" ? singleClose(line, 0) : doubleClose(line, 0)
      const indentation = line.length - line.trimStart().length
      if (line.trim() !== "" && indentation <= open.indent) {
        lines[index] = `${" ".repeat(open.indent + 2)}${line.trimStart()}`
        repaired++
      }
      if (close >= 0) open = undefined
      continue
    }
    const match = OPENING.exec(line)
    if (match === null) continue
    const [, indent, quote, rest] = match
    const close = quote === "'" ? singleClose(rest!, 0) : doubleClose(rest!, 0)
    if (close < 0) open = { quote: quote!, indent: indent!.length }
  }
  return { text: lines.join("\n"), repaired }
}
