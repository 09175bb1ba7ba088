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
  constructor(readonly mode: ClockMode = "logical") {}
  /** The latest stamped time (no advance). */
  now(): number {
    return this.mode === "wall" ? Math.max(Date.now(), this.current) : this.current
  }
  /** Advances and returns the time for a write. */
  tick(): number {
    this.current = this.mode === "wall" ? Math.max(Date.now(), this.current + 1) : this.current + 1000
    return this.current
  }
  reset(): void {
    this.current = SANDBOX_NOW
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString()
export const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
