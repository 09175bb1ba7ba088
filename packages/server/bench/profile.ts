/*
 * `pnpm --filter @switchyard/server bench:profile`: where a unified call's CPU goes (the list,
 * or with PROFILE_TARGET=get one application). Starts the
 * provider stand-in and Switchyard on the embedded default (as the benchmark does, plus
 * `--cpu-prof`), loads the
 * unified list at 50 connections for PROFILE_SECONDS (default 10) with autocannon, stops the
 * server, and prints each thread's self time by package and by function (top 25), from the
 * `.cpuprofile` files V8 wrote (kept in the printed directory, for Chrome's DevTools).
 * A separate script from `pnpm bench`: the profiler slows the server, so its figures are not
 * the benchmark's.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import * as Os from "node:os"
import { join } from "node:path"
import { runAutocannon } from "./autocannon.js"
import { startProviderStandIn } from "./providerStandIn.js"
import { atCleanup, installCleanup, interrupted, stopAll } from "./processes.js"
import { basicAuth, BENCH_KEY, repoDir, serverCommand, setUpAccount, startSwitchyard } from "./switchyard.js"

const SECONDS = Number(process.env["PROFILE_SECONDS"] ?? 10)
const TARGET = process.env["PROFILE_TARGET"] === "get" ? "get" : "list"

const firstApplicationId = async (baseUrl: string, headers: Record<string, string>) => {
  const page = await (await fetch(`${baseUrl}/unified/ats/applications?page_size=1`, { headers })).json() as { data: ReadonlyArray<{ id: string }> }
  return page.data[0]!.id
}

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** The package a script belongs to (its node_modules directory, or the bundle's chunk), else a runtime category. */
const packageOf = (url: string, functionName: string) => {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)"
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(url)
  if (inModules !== null) return inModules[1]!
  if (url.startsWith("node:")) return "node:*"
  return url.replace(/^file:\/\//, "").replace(`${repoDir}/`, "").replace(/\?.*$/, "")
}

const top = (totals: Map<string, number>, all: number, count: number) =>
  [...totals].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([name, micros]) => `  ${((100 * micros) / all).toFixed(1).padStart(5)}%  ${name}`)

const summarize = (file: string) => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const nameOf = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode) =>
    `${functionName || "(anonymous)"} ${packageOf(url, functionName)}:${lineNumber + 1}`
  const byPackage = new Map<string, number>()
  const byFunction = new Map<string, number>()
  /** Time with the function anywhere on the stack (each function once per sample). */
  const inclusive = new Map<string, number>()
  let all = 0
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0
    const node = byId.get(id)!
    const { functionName, url } = node.callFrame
    all += delta
    const pkg = packageOf(url, functionName)
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + delta)
    byFunction.set(nameOf(node), (byFunction.get(nameOf(node)) ?? 0) + delta)
    const onStack = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) onStack.add(nameOf(byId.get(at)!))
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + delta)
  })
  const idle = byPackage.get("(idle)") ?? 0
  console.log(`\n${file}: ${(all / 1e6).toFixed(1)} s sampled, ${((100 * (all - idle)) / all).toFixed(0)}% busy`)
  console.log("by package:")
  for (const line of top(byPackage, all, 15)) console.log(line)
  console.log("by function (self time):")
  for (const line of top(byFunction, all, 25)) console.log(line)
  console.log("by function, with what it calls (this repository's functions):")
  const ours = new Map([...inclusive].filter(([name]) => name.includes(" packages/")))
  for (const line of top(ours, all, 30)) console.log(line)
}

const main = async () => {
  installCleanup()
  const profiles = mkdtempSync(join(Os.tmpdir(), "switchyard-profile-"))
  const scratch = mkdtempSync(join(Os.tmpdir(), "switchyard-profile-scratch-"))
  atCleanup(() => rmSync(scratch, { recursive: true, force: true }))
  const { process: providerProcess, provider } = await startProviderStandIn()
  // The compiled modules before bundling (build/): the bundle's minified chunks would hide
  // which module a function is in. On the embedded default: what a newcomer runs; the
  // database's thread is profiled too.
  const command = serverCommand()
  const server = await startSwitchyard({ ...command, args: ["--cpu-prof", `--cpu-prof-dir=${profiles}`, "build/main.js"] })
  const accountId = await setUpAccount(server.baseUrl, provider)
  const headers = { authorization: basicAuth(BENCH_KEY), "x-account-id": accountId }
  // PROFILE_TARGET=get: one record per answer, so what every request costs whatever its size.
  const path = TARGET === "get" ? "/unified/ats/applications/" + await firstApplicationId(server.baseUrl, headers) : "/unified/ats/applications?page_size=100"
  const load = { url: `${server.baseUrl}${path}`, connections: 50, headers, behind: [server.child, providerProcess] }
  const result = await runAutocannon({ ...load, seconds: SECONDS }, scratch)
  console.log(`GET ${path}, 50 connections, ${SECONDS} s under the profiler: ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50} ms`)
  await server.stop()
  await stopAll()
  for (const file of readdirSync(profiles).filter((name) => name.endsWith(".cpuprofile"))) summarize(join(profiles, file))
  console.log(`\nprofiles kept in ${profiles}`)
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    if (interrupted() === undefined) console.error(`\nprofile failed: ${error instanceof Error ? error.message : String(error)}`)
    await stopAll()
    process.exit(1)
  }
)
