/*
 * Local `$ref`s (`#/components/schemas/Employee`) resolved on demand, never by expanding the
 * whole document: real documents have recursive schemas (a manager is an employee), and an
 * expanded copy of a large one can be many times its size. A reference to another file or
 * URL cannot be followed from one document: it is noted for review and read as unknown.
 */

export type JsonObject = Readonly<Record<string, unknown>>

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Hops followed through chained references before giving up (a chain this long is a loop). */
const MAX_HOPS = 64

export interface RefResolver {
  /** `node` with its `$ref` chain followed; undefined for a broken, external or looping reference. */
  readonly deref: (node: unknown) => JsonObject | undefined
  /** What could not be followed, one line each, in the order found. */
  readonly problems: () => ReadonlyArray<string>
}

const decodePointerToken = (token: string) => {
  let text = token
  try {
    text = decodeURIComponent(token)
  } catch {
    // a literal % in a key
  }
  return text.replace(/~1/g, "/").replace(/~0/g, "~")
}

export const makeRefResolver = (root: JsonObject): RefResolver => {
  const problems = new Map<string, string>()
  const note = (ref: string, message: string) => {
    if (!problems.has(ref)) problems.set(ref, message)
  }
  const cache = new Map<string, JsonObject | null>()

  const lookup = (ref: string): unknown => {
    let current: unknown = root
    for (const token of ref.slice(2).split("/").map(decodePointerToken)) {
      if (isRecord(current) && Object.hasOwn(current, token)) current = current[token]
      else if (Array.isArray(current) && /^\d+$/.test(token)) current = current[Number(token)]
      else return undefined
    }
    return current
  }

  const follow = (ref: string): JsonObject | undefined => {
    const cached = cache.get(ref)
    if (cached !== undefined) return cached ?? undefined
    const chain = new Set<string>()
    let current: string = ref
    let result: JsonObject | undefined
    for (let hops = 0;; hops++) {
      if (!current.startsWith("#")) {
        note(current, `${current}: a reference to another document, which the builder does not fetch; what it describes is left for review`)
        break
      }
      if (chain.has(current) || hops > MAX_HOPS) {
        note(current, `${current}: a reference that leads back to itself`)
        break
      }
      chain.add(current)
      const target = current === "#" ? root : current.startsWith("#/") ? lookup(current) : undefined
      if (!isRecord(target)) {
        note(current, `${current}: a reference to nothing in the document`)
        break
      }
      if (typeof target.$ref === "string") {
        current = target.$ref
        continue
      }
      result = target
      break
    }
    cache.set(ref, result ?? null)
    return result
  }

  return {
    deref: (node) => {
      if (!isRecord(node)) return undefined
      return typeof node.$ref === "string" ? follow(node.$ref) : node
    },
    problems: () => [...problems.values()]
  }
}
