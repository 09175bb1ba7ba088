import { Either, ParseResult, Schema } from "effect"

/**
 * What the platform sends for `value` under its success `schema` (`Schema.encode`, then
 * `JSON.stringify`): the JSON text, or the reason it cannot (the parse issues' tree, or the
 * JSON step's failure).
 */
export const schemaEncodedJson = (schema: Schema.Schema.Any, value: unknown): Either.Either<string, string> => {
  const encoded = Schema.encodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)(value)
  if (Either.isLeft(encoded)) return Either.left(ParseResult.TreeFormatter.formatErrorSync(encoded.left))
  try {
    const text = JSON.stringify(encoded.right)
    return text === undefined ? Either.left("no JSON") : Either.right(text)
  } catch (error) {
    return Either.left(`JSON: ${String(error)}`)
  }
}

/** Values a field may wrongly hold: each kind of JSON value, and a few that JSON cannot carry. */
const misfits: ReadonlyArray<() => unknown> = [
  () => 0,
  () => 1.5,
  () => Number.NaN,
  () => "x",
  () => "",
  () => true,
  () => null,
  () => undefined,
  () => ({}),
  () => [],
  () => ({ id: 1 }),
  () => ["a", 2],
  () => 10n
]

/** A small deterministic generator (mulberry32), so a failing case is the same on every run. */
export const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

class Unusual {}

/**
 * `value` changed in place `times` times at places `random` picks: a field given a misfit,
 * a key or item removed, an excess key added, an object replaced by a copy without
 * prototype or with a class's prototype.
 */
export const mutate = (value: unknown, random: () => number, times: number): unknown => {
  const root = { value }
  for (let n = 0; n < times; n++) {
    const slots: Array<[Record<PropertyKey, unknown>, PropertyKey]> = []
    const walk = (container: Record<PropertyKey, unknown>, key: PropertyKey, depth: number) => {
      slots.push([container, key])
      const inner = container[key]
      if (depth > 8 || typeof inner !== "object" || inner === null) return
      for (const child of Object.keys(inner)) walk(inner as Record<string, unknown>, child, depth + 1)
    }
    walk(root, "value", 0)
    const [container, key] = slots[Math.floor(random() * slots.length)]!
    const current = container[key]
    const pick = () => misfits[Math.floor(random() * misfits.length)]!()
    switch (Math.floor(random() * 5)) {
      case 0:
        container[key] = pick()
        break
      case 1:
        if (Array.isArray(container)) container.length = Math.max(0, container.length - 1)
        else if (container !== root) delete container[key]
        break
      case 2:
        if (typeof current === "object" && current !== null && !Array.isArray(current)) {
          // an own "__proto__" key (JSON.parse makes those), not the prototype's setter
          Object.defineProperty(current, random() < 0.5 ? "zz_excess" : "__proto__", {
            value: pick(),
            enumerable: true,
            writable: true,
            configurable: true
          })
        } else container[key] = pick()
        break
      case 3:
        if (typeof current === "object" && current !== null && !Array.isArray(current)) {
          container[key] = Object.assign(Object.create(null), current)
        }
        break
      default:
        if (typeof current === "object" && current !== null && !Array.isArray(current)) {
          container[key] = Object.assign(new Unusual(), current)
        }
    }
  }
  return root.value
}
