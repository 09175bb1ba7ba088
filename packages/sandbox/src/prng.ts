/**
 * Deterministic randomness for generated data. Nothing in the sandbox's data uses Math.random:
 * every record draws from a mulberry32 generator seeded by (sandbox seed, record kind, index), so
 * a record does not change when the counts of other records change.
 */

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export const mulberry32 = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** FNV-1a over the parts, finished with a murmur3-style avalanche. */
export const hash32 = (...parts: ReadonlyArray<string | number>): number => {
  let h = 0x811c9dc5
  const text = parts.map(String).join("\u0001")
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

export class Rng {
  private readonly next01: () => number
  constructor(seed: number) {
    this.next01 = mulberry32(seed)
  }
  /** A float in [0, 1). */
  next(): number {
    return this.next01()
  }
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next01() * (max - min + 1))
  }
  chance(p: number): boolean {
    return this.next01() < p
  }
  pick<T>(items: ReadonlyArray<T>): T {
    if (items.length === 0) throw new Error("pick from an empty list")
    return items[Math.floor(this.next01() * items.length)] as T
  }
  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0)
    let r = this.next01() * total
    for (const [value, w] of entries) {
      r -= w
      if (r < 0) return value
    }
    return (entries[entries.length - 1] as readonly [T, number])[0]
  }
  /** `count` distinct items, in a seeded order. */
  sample<T>(items: ReadonlyArray<T>, count: number): Array<T> {
    const copy = [...items]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next01() * (i + 1))
      const tmp = copy[i] as T
      copy[i] = copy[j] as T
      copy[j] = tmp
    }
    return copy.slice(0, Math.max(0, Math.min(count, copy.length)))
  }
  hex(length: number): string {
    let out = ""
    while (out.length < length) out += Math.floor(this.next01() * 16).toString(16)
    return out
  }
  digits(length: number): string {
    let out = ""
    while (out.length < length) out += String(Math.floor(this.next01() * 10))
    return out
  }
}

/** A generator for one record: the same (seed, keys) always yields the same sequence. */
export const rngFor = (seed: number, ...keys: ReadonlyArray<string | number>): Rng => new Rng(hash32(seed, ...keys))
