/* What expressions read (scopes over the run's context), how far they may grow, and how they fail. */

export interface ExpressionBounds {
  /** Longest string an interpolation or a JEXL expression may produce. */
  readonly maxStringLength: number
}

export const defaultExpressionBounds: ExpressionBounds = { maxStringLength: 1_000_000 }

/** An expression failed while evaluating (or produced more than its bounds allow). */
export class ExpressionError extends Error {
  override readonly name = "ExpressionError"
  constructor(
    readonly source: string,
    readonly reason: string,
    readonly tooLarge: boolean,
    readonly path: string | undefined
  ) {
    super(`expression ${JSON.stringify(source)}${path === undefined ? "" : ` at ${path}`} ${reason}`)
  }
}

const hasOwn = Object.prototype.hasOwnProperty

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// ---- scopes -----------------------------------------------------------------------

/** What expressions read: the run context, possibly with a record laid over it. */
export interface Scope {
  /** A top-level name (`inputs`, a record field, a step id); own properties only. */
  get(name: string): unknown
  /** What `$` denotes: the whole root (built on demand for record scopes). */
  root(): unknown
  /** What JEXL's `$.name` reads (differs from `get` only for array roots). */
  dollar(name: string): unknown
  readonly bounds: ExpressionBounds
}

/** The run context itself: `{inputs, credentials, settings, steps, ...}`. */
export class ContextScope implements Scope {
  constructor(
    readonly context: Record<string, unknown>,
    readonly bounds: ExpressionBounds = defaultExpressionBounds
  ) {}
  get(name: string): unknown {
    return hasOwn.call(this.context, name) ? this.context[name] : undefined
  }
  root(): unknown {
    return this.context
  }
  dollar(name: string): unknown {
    return this.get(name)
  }
}

/** Any value as the root, e.g. a response body read by `response.dataKey`. */
export class ValueScope implements Scope {
  constructor(
    readonly value: unknown,
    readonly bounds: ExpressionBounds = defaultExpressionBounds
  ) {}
  get(name: string): unknown {
    const value = this.value
    return value && hasOwn.call(value, name) ? (value as Record<string, unknown>)[name] : undefined
  }
  root(): unknown {
    return this.value
  }
  dollar(name: string): unknown {
    let value = this.value
    if (value === undefined || value === null) return undefined
    if (Array.isArray(value)) value = value[0]
    return (value as Record<string, unknown>)[name]
  }
}

/**
 * A record laid over a base scope: names resolve to the record when one of `aliases`
 * (a step id, so `$.fetch_employees.email` reads the record) or a record field, else to
 * the base. Mutable on purpose: `set` moves it to the next record without allocating.
 */
export class RecordScope implements Scope {
  private record: unknown = undefined
  private merged: Record<string, unknown> | undefined = undefined
  constructor(
    readonly base: Scope,
    readonly aliases: ReadonlyArray<string> = []
  ) {}
  get bounds(): ExpressionBounds {
    return this.base.bounds
  }
  set(record: unknown): this {
    this.record = record
    this.merged = undefined
    return this
  }
  current(): unknown {
    return this.record
  }
  /** An own field of the current record (a field config without `expression`). */
  currentField(name: string): unknown {
    const record = this.record
    return isRecord(record) && hasOwn.call(record, name) ? record[name] : undefined
  }
  get(name: string): unknown {
    const aliases = this.aliases
    for (let i = 0; i < aliases.length; i++) if (aliases[i] === name) return this.record
    const record = this.record
    if (isRecord(record) && hasOwn.call(record, name)) return record[name]
    return this.base.get(name)
  }
  root(): unknown {
    if (this.merged === undefined) {
      const baseRoot = this.base.root()
      const merged: Record<string, unknown> = isRecord(baseRoot) ? { ...baseRoot } : {}
      if (isRecord(this.record)) Object.assign(merged, this.record)
      for (const alias of this.aliases) merged[alias] = this.record
      this.merged = merged
    }
    return this.merged
  }
  dollar(name: string): unknown {
    return this.get(name)
  }
}
