import { Document, isNode, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml"

/*
 * The draft is built as plain values, with `Commented` marking the values that carry a
 * comment, then written through yaml's Document API so that every remark the builder makes
 * is a real YAML comment next to what it is about, and the text still parses as the same
 * values.
 */

export class Commented {
  constructor(
    readonly value: unknown,
    /** Lines written above the value (above its key, in a mapping). */
    readonly before: ReadonlyArray<string>,
    /** Lines written after the value (after a whole list or mapping). */
    readonly after: ReadonlyArray<string>
  ) {}
}

/** `value` with comment lines above and after it; no lines, no wrapper. */
export const commented = (
  value: unknown,
  comments: { readonly before?: ReadonlyArray<string>; readonly after?: ReadonlyArray<string> }
): unknown => {
  const before = comments.before ?? []
  const after = comments.after ?? []
  return before.length === 0 && after.length === 0 ? value : new Commented(value, before, after)
}

/** Short lists of short words (`categories: [hris]`) read best on one line. */
export class Flow {
  constructor(readonly items: ReadonlyArray<string>) {}
}

/** Comment lines wrap at this width (a long list of unmapped fields stays readable). */
const COMMENT_WIDTH = 110
/** A single remark is cut after this many characters (descriptions copied from documents can be pages long). */
const MAX_REMARK = 2000

const wrap = (line: string): Array<string> => {
  const out: Array<string> = []
  let current = ""
  for (const word of line.split(" ")) {
    if (current !== "" && current.length + 1 + word.length > COMMENT_WIDTH) {
      out.push(current)
      current = `  ${word}`
    } else current = current === "" ? word : `${current} ${word}`
  }
  if (current !== "") out.push(current)
  return out
}

/** Comment text: line breaks of the remarks folded, long remarks wrapped, a space after each `#`. */
const commentText = (lines: ReadonlyArray<string>) =>
  lines
    .map((line) => line.replace(/\s+/g, " ").trim())
    .map((line) => (line.length > MAX_REMARK ? `${line.slice(0, MAX_REMARK - 3)}...` : line))
    .flatMap(wrap)
    .map((line) => ` ${line}`)
    .join("\n")

const toNode = (doc: Document, value: unknown): unknown => {
  if (value instanceof Commented) {
    const node = toNode(doc, value.value)
    if (isNode(node)) {
      if (value.before.length > 0) node.commentBefore = commentText(value.before)
      if (value.after.length > 0) node.comment = commentText(value.after)
    }
    return node
  }
  if (value instanceof Flow) {
    const seq = new YAMLSeq()
    seq.flow = true
    for (const item of value.items) seq.items.push(new Scalar(item))
    return seq
  }
  if (Array.isArray(value)) {
    const seq = new YAMLSeq()
    for (const item of value) seq.items.push(toNode(doc, item))
    return seq
  }
  if (typeof value === "object" && value !== null) {
    const map = new YAMLMap()
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue
      const keyNode = new Scalar(key)
      // a comment above a mapping's value belongs above its key
      if (item instanceof Commented && item.before.length > 0) {
        keyNode.commentBefore = commentText(item.before)
        map.items.push(new Pair(keyNode, toNode(doc, new Commented(item.value, [], item.after))))
      } else {
        map.items.push(new Pair(keyNode, toNode(doc, item)))
      }
    }
    return map
  }
  return doc.createNode(value)
}

/** The YAML text of `value`. */
export const renderYaml = (value: unknown): string => {
  const doc = new Document()
  doc.contents = toNode(doc, value) as YAMLMap
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false })
}
