/*
 * CPU time of a process as the operating system counts it (utime + stime in /proc/<pid>/stat,
 * every thread of it): what a request costs the server whatever else shares the machine, where
 * req/s moves with the other tenants' load. Linux only; elsewhere the figures are left out.
 */
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"

const ticksPerSecond = (() => {
  const answer = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" })
  const n = Number(answer.stdout?.trim())
  return answer.status === 0 && Number.isInteger(n) && n > 0 ? n : 100
})()

/** The processes `pid` started (a cluster primary's workers), from every thread's children list. */
const childrenOf = (pid: number): ReadonlyArray<number> => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
    )
  } catch {
    return []
  }
}

/**
 * User + system CPU time of `pid` and the processes under it so far, in ms (a cluster's
 * workers count as the server's), or undefined where /proc is not available.
 */
export const cpuMs = (pid: number): number | undefined => {
  const own = processCpuMs(pid)
  return own === undefined ? undefined : childrenOf(pid).reduce((sum, child) => sum + (cpuMs(child) ?? 0), own)
}

const processCpuMs = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // fields after the command name (which may hold spaces), from the third: utime is the 14th field
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
  } catch {
    return undefined
  }
}
