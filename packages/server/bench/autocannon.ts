/*
 * Load from outside: autocannon (a maintained HTTP load generator from the registry) in its own
 * process, so the load generator never shares an event loop with what it measures, and the
 * figures are autocannon's, not ours. Its --json report is parsed; any non-2xx answer, socket
 * error or timeout fails the benchmark with one sample of what the target answered.
 */
import { createRequire } from "node:module"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { cpuMs } from "./cpu.js"
import { type Child, completed, spawnChild } from "./processes.js"

const autocannonBin = createRequire(import.meta.url).resolve("autocannon/autocannon.js")

export interface Load {
  readonly url: string
  readonly connections: number
  /** Run this long, or (when `amount` is given) until that many requests have answered. */
  readonly seconds?: number
  readonly amount?: number
  readonly method?: "GET" | "POST"
  readonly body?: string
  readonly headers: Readonly<Record<string, string>>
  /**
   * Processes behind the URL, the one that answers it first (server, then provider): named with
   * their last output if one died; the first one's CPU time per request is reported.
   */
  readonly behind?: ReadonlyArray<Child>
}

export interface LoadResult {
  readonly requests: number
  readonly reqPerSec: number
  /** Milliseconds; autocannon records whole milliseconds. */
  readonly p50: number
  readonly p99: number
  /** CPU time (user + system, all threads) the first process `behind` spent per request, in ms. */
  readonly cpuMsPerRequest: number | undefined
}

interface AutocannonReport {
  readonly requests: { readonly average: number; readonly total: number }
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  readonly duration: number
}

export const runAutocannon = async (load: Load, scratchDir: string): Promise<LoadResult> => {
  const args = [autocannonBin, "--json", "-c", String(load.connections)]
  if (load.amount !== undefined) args.push("-a", String(load.amount))
  else args.push("-d", String(load.seconds ?? 10))
  if (load.method !== undefined) args.push("-m", load.method)
  if (load.body !== undefined) {
    // A file, not -b: autocannon's argument parser would read a JSON body's brackets as sub-arguments.
    const file = join(scratchDir, "body.json")
    writeFileSync(file, load.body)
    args.push("-i", file)
  }
  for (const [name, value] of Object.entries(load.headers)) args.push("-H", `${name}=${value}`)
  args.push(load.url)
  // Without PORT: autocannon reads it as the target's port.
  const { PORT: _port, ...env } = process.env
  const target = load.behind?.[0]
  const cpuBefore = target === undefined ? undefined : cpuMs(target.pid)
  const child = spawnChild(`autocannon ${load.method ?? "GET"} ${load.url} -c ${load.connections}`, process.execPath, args, { cwd: scratchDir, env })
  const stdout = await completed(child)
  const cpuAfter = target === undefined ? undefined : cpuMs(target.pid)
  let report: AutocannonReport
  try {
    report = JSON.parse(stdout.trim().split("\n").pop()!) as AutocannonReport
  } catch {
    throw new Error(`${child.name} printed no JSON report:\n${child.tail()}`)
  }
  if (report.non2xx > 0 || report.errors > 0 || report.timeouts > 0 || report.requests.total === 0) {
    throw new Error(
      `${child.name}: ${report.non2xx} non-2xx, ${report.errors} errors, ${report.timeouts} timeouts of ${report.requests.total} requests.\n` +
        `One request by hand answered: ${await sample(load)}` +
        (load.behind ?? []).filter((p) => p.status() !== undefined).map((p) => `\n${p.name} had ended (${p.status()}):\n${p.tail()}`).join("")
    )
  }
  return {
    requests: report.requests.total,
    // average of per-second samples would undercount a run of -a N; total over the run's duration does not.
    reqPerSec: report.requests.total / report.duration,
    p50: report.latency.p50,
    p99: report.latency.p99,
    cpuMsPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / report.requests.total
  }
}

/** What one request like the load's answers (status and the start of the body). */
const sample = async (load: Load): Promise<string> => {
  try {
    const response = await fetch(load.url, { method: load.method ?? "GET", headers: load.headers, ...(load.body === undefined ? {} : { body: load.body }), signal: AbortSignal.timeout(10_000) })
    return `${response.status} ${(await response.text()).slice(0, 600)}`
  } catch (error) {
    return String(error)
  }
}
