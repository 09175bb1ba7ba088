/*
 * CPU time of a process as the operating system counts it (utime + stime in /proc/<pid>/stat,
 * every thread of it): what a request costs the server whatever else shares the machine, where
 * req/s moves with the other tenants' load. Linux only; elsewhere the figures are left out.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"

const ticksPerSecond = (() => {
  const answer = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" })
  const n = Number(answer.stdout?.trim())
  return answer.status === 0 && Number.isInteger(n) && n > 0 ? n : 100
})()

/** User + system CPU time of `pid` so far, in ms, or undefined where /proc is not available. */
export const cpuMs = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // fields after the command name (which may hold spaces), from the third: utime is the 14th field
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
  } catch {
    return undefined
  }
}
