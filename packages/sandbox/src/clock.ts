/** Generated data lies between DATA_START and SANDBOX_NOW; nothing depends on the wall clock. */
export const DATA_START = Date.UTC(2024, 0, 1, 0, 0, 0)
export const SANDBOX_NOW = Date.UTC(2025, 0, 1, 0, 0, 0)
export const DAY = 24 * 60 * 60 * 1000

export type ClockMode = "logical" | "wall"

/**
 * The time writes are stamped with. "logical" (default) starts at SANDBOX_NOW and moves one second
 * per write, so runs are reproducible; "wall" uses the real time (never going backwards).
 */
export class Clock {
  private current = SANDBOX_NOW
  /** Added to the wall time by `advance` ("wall" mode). */
  private offset = 0
  constructor(readonly mode: ClockMode = "logical") {}
  /** The latest stamped time (no advance). */
  now(): number {
    return this.mode === "wall" ? Math.max(Date.now() + this.offset, this.current) : this.current
  }
  /** Advances and returns the time for a write. */
  tick(): number {
    this.current = this.mode === "wall" ? Math.max(Date.now() + this.offset, this.current + 1) : this.current + 1000
    return this.current
  }
  /** Moves time forward by `ms` without a write (e.g. to expire tokens in tests); returns the new now. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new Error("the clock only moves forward: ms must be a non-negative number")
    if (this.mode === "wall") this.offset += ms
    this.current += ms
    return this.now()
  }
  reset(): void {
    this.current = SANDBOX_NOW
    this.offset = 0
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString()
export const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
