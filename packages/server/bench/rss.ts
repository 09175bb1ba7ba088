/*
 * Resident memory of a process, as the operating system counts it (VmRSS in /proc/<pid>/status):
 * what a container limit or a host's memory graph sees, heap and native memory (e.g. the embedded
 * database) together. Linux only; elsewhere the figures are left out.
 */
import { readFileSync } from "node:fs"
import { sleep } from "./processes.js"

/** VmRSS in MB, or undefined where /proc is not available. */
export const rssMb = (pid: number): number | undefined => {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? undefined : Number(match[1]) / 1024
  } catch {
    return undefined
  }
}

/**
 * RSS once start-up work has died down: readings 1 s apart until two differ by less than 5 MB
 * (at most `maxSeconds`), so "idle" does not catch a process in the middle of migrations or JIT.
 */
export const settledRssMb = async (pid: number, maxSeconds = 15): Promise<number | undefined> => {
  let previous = rssMb(pid)
  for (let i = 0; i < maxSeconds && previous !== undefined; i++) {
    await sleep(1000)
    const current = rssMb(pid)
    if (current === undefined) return previous
    if (Math.abs(current - previous) < 5) return current
    previous = current
  }
  return previous
}

export const formatMb = (mb: number | undefined) => (mb === undefined ? "n/a" : `${mb.toFixed(0)} MB`)
