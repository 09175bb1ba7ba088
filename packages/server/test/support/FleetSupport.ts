import { SANDBOX_PORT_VARIABLES } from "@switchyard/sandbox"
import * as Http from "node:http"
import * as Path from "node:path"
import { exited, start, waitFor } from "./ServerProcess.js"

/*
 * Helpers for tests of a cluster (SWITCHYARD_WORKERS): requests over node:http, so a test
 * chooses its connections (a new one per request, or one kept alive) and sees `Connection`.
 */

export interface Answer {
  readonly status: number
  readonly connection: string | undefined
  readonly retryAfter: string | undefined
  readonly body: string
  /** Sent over a connection kept alive from an earlier request (the agent's `reusedSocket`). */
  readonly reusedSocket: boolean
}

/** One request; `agent: false` opens a connection of its own. Rejects on a network failure. */
export const request = (
  url: string,
  options: {
    readonly method?: string
    readonly headers?: Record<string, string>
    readonly body?: unknown
    readonly agent?: Http.Agent | false
  } = {}
) =>
  new Promise<Answer>((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    const sent = Http.request(url, {
      method: options.method ?? "GET",
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
      agent: options.agent ?? false,
      timeout: 180_000
    }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk))
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          retryAfter: response.headers["retry-after"],
          body: text,
          reusedSocket: sent.reusedSocket
        }))
      response.on("error", reject)
    })
    sent.on("timeout", () => sent.destroy(new Error("no answer in time")))
    sent.on("error", reject)
    sent.end(body)
  })

export type ServerHandle = ReturnType<typeof start>

/** Workers the primary logged as started: id and pid, in order. */
export const startedWorkers = (server: ServerHandle) =>
  [...server.output().matchAll(/message="worker (\d+) started" pid=(\d+)/g)].map((match) => ({
    id: Number(match[1]),
    pid: Number(match[2])
  }))

export const workerExited = (server: ServerHandle, id: number) =>
  new RegExp(`message="worker ${id} exited `).test(server.output())

export const waitForWorkers = (server: ServerHandle, count: number) =>
  waitFor(() => startedWorkers(server).length >= count, `${count} workers started`)

export const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export type Process = ReturnType<typeof start>

/** SIGTERM to each process, resolving when all have exited. */
export const stopAll = (processes: ReadonlyArray<Process>) =>
  Promise.all(processes.map((process) => {
    const stopped = exited(process.child)
    process.child.kill("SIGTERM")
    return stopped
  }))

const sandboxMain = Path.resolve(import.meta.dirname, "../../../sandbox/src/main.ts")

/**
 * The sandbox providers in a process of their own (pushed to `processes`), so their arrival
 * stamps do not wait on the test's clients: its admin origin and the providers' details. The
 * sandbox picks its own free ports (0) and prints them: ports chosen here could be taken by a
 * parallel test before the sandbox binds them.
 */
export const startSandboxProcess = async (processes: Array<Process>) => {
  const sandbox = start(sandboxMain, [], { ...process.env, SANDBOX_SEED: "7", ...Object.fromEntries(SANDBOX_PORT_VARIABLES.map((name) => [name, "0"])) }, {
    inProcess: true
  })
  processes.push(sandbox)
  let origin: string | undefined
  await waitFor(() => {
    if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) {
      throw new Error(`the sandbox exited before it served:\n${sandbox.output()}`)
    }
    const printed = sandbox.output().match(/^ATS .*?(http:\/\/\S+)/m)?.[1]
    origin = printed === undefined ? undefined : new URL(printed).origin
    return origin !== undefined
  }, "the sandbox")
  const info = (await (await fetch(`${origin}/_sandbox`)).json()) as {
    ats: { baseUrl: string; apiKey: string; onBehalfOf: number }
    hris: { baseUrl: string; apiKey: string; companyDomain: string }
  }
  return { origin: origin!, ats: info.ats, hris: info.hris }
}
