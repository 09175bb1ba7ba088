import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import type { Worker } from "node:worker_threads"
import { startModuleWorker } from "../src/platform/workerThread.js"

/*
 * Worker threads start from the compiled module beside their caller (`node dist/main.js`)
 * or, from the sources (tsx, vitest), from its TypeScript source through tsx.
 */

/** A directory of ES modules, as dist/ is inside the server's package. */
const moduleDir = (files: Record<string, string>) => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-worker-thread-"))
  Fs.writeFileSync(Path.join(dir, "package.json"), JSON.stringify({ type: "module" }))
  for (const [name, text] of Object.entries(files)) Fs.writeFileSync(Path.join(dir, name), text)
  return dir
}

const echo = (language: "js" | "ts") => `
import { parentPort, workerData } from "node:worker_threads"
const answer${language === "ts" ? ": { readonly file: string; readonly data: unknown }" : ""} = { file: import.meta.url, data: workerData }
parentPort${language === "ts" ? "!" : ""}.postMessage(answer)
`

/** The worker's first message, or what ended it first. */
const firstMessage = (worker: Worker) =>
  new Promise<unknown>((resolve, reject) => {
    worker.once("message", resolve)
    worker.once("error", reject)
    worker.once("exit", (code) => reject(new Error(`exited with code ${code}`)))
  }).finally(() => worker.terminate())

describe("startModuleWorker", () => {
  it("runs the compiled module when it is there, with the caller's workerData", async () => {
    const dir = moduleDir({ "Echo.js": echo("js"), "Echo.ts": "throw new Error('the source must not run')" })
    const answer = await firstMessage(
      startModuleWorker(pathToFileURL(Path.join(dir, "Echo.js")), { workerData: { job: 7 } })
    )
    expect(answer).toEqual({ file: pathToFileURL(Path.join(dir, "Echo.js")).href, data: { job: 7 } })
  })

  it("runs the TypeScript source through tsx when no compiled module is there", async () => {
    const dir = moduleDir({ "Echo.ts": echo("ts") })
    const answer = await firstMessage(
      startModuleWorker(pathToFileURL(Path.join(dir, "Echo.js")), { workerData: { job: "from source" } })
    )
    expect(answer).toEqual({ file: pathToFileURL(Path.join(dir, "Echo.ts")).href, data: { job: "from source" } })
  })

  it("a module that throws while loading is the worker's error event", async () => {
    const dir = moduleDir({ "Broken.ts": "const reason: string = 'broken on load'\nthrow new Error(reason)\n" })
    await expect(firstMessage(startModuleWorker(pathToFileURL(Path.join(dir, "Broken.js"))))).rejects.toThrow(
      "broken on load"
    )
  })

  it("refuses a module that is neither compiled nor a source", () => {
    const dir = moduleDir({})
    expect(() => startModuleWorker(pathToFileURL(Path.join(dir, "Missing.js")))).toThrow(
      `no worker module at ${Path.join(dir, "Missing.js")} nor its source ${Path.join(dir, "Missing.ts")}`
    )
  })
})
