/*
 * Child processes of the benchmark. Every process under test and every load generator runs in
 * its own process so that no two share an event loop or a heap; this file starts them, keeps the
 * end of their output for error messages, and makes sure none outlives the benchmark (normal
 * end, failure, Ctrl-C).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Net from "node:net"

export interface Child {
  readonly name: string
  readonly pid: number
  readonly process: ChildProcess
  /** Everything written to stdout so far (kept whole unless `keepStdout` is false: load generators print their JSON there). */
  stdout(): string
  /** The last lines of stdout and stderr together, for error messages. */
  tail(): string
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>
  /** The exit code or signal once ended, else undefined. */
  status(): number | string | undefined
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has ended. */
  stop(graceMs?: number): Promise<void>
}

const running = new Set<Child>()
const TAIL_LINES = 40

export const spawnChild = (
  name: string,
  command: string,
  args: ReadonlyArray<string>,
  options: {
    readonly cwd: string
    readonly env: NodeJS.ProcessEnv
    /** false: only the tail is kept (a server logging every request would otherwise pile up here). */
    readonly keepStdout?: boolean
  }
): Child => {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`)
  let out = ""
  let lines: Array<string> = []
  // Reading both pipes continuously also keeps a chatty child from blocking on a full pipe.
  const keep = (chunk: Buffer, into: "stdout" | "stderr") => {
    const text = chunk.toString("utf8")
    if (into === "stdout" && options.keepStdout !== false) out += text
    lines.push(...text.split("\n").filter((line) => line.length > 0))
    if (lines.length > TAIL_LINES * 2) lines = lines.slice(-TAIL_LINES)
  }
  child.stdout!.on("data", (chunk: Buffer) => keep(chunk, "stdout"))
  child.stderr!.on("data", (chunk: Buffer) => keep(chunk, "stderr"))
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => {
      running.delete(handle)
      resolve(code ?? signal ?? "unknown")
    })
  )
  const handle: Child = {
    name,
    pid: child.pid,
    process: child,
    stdout: () => out,
    tail: () => lines.slice(-TAIL_LINES).join("\n"),
    exited,
    status: () => child.exitCode ?? child.signalCode ?? undefined,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
    }
  }
  running.add(handle)
  return handle
}

const tasks = new Set<() => Promise<void> | void>()

/** Work that must happen however the benchmark ends (drop a database, remove a directory); answers a function that deregisters it. */
export const atCleanup = (task: () => Promise<void> | void): (() => void) => {
  tasks.add(task)
  return () => void tasks.delete(task)
}

let stopping: Promise<void> | undefined

/**
 * Stops every child still running (in parallel), then runs the registered cleanup tasks. Called
 * twice (a signal, and the failure the signal causes), the second call waits for the first.
 */
export const stopAll = (): Promise<void> =>
  stopping ??= (async () => {
    await Promise.all([...running].map((child) => child.stop(5_000)))
    for (const task of [...tasks]) {
      tasks.delete(task)
      try {
        await task()
      } catch (error) {
        console.error(`cleanup failed: ${String(error)}`)
      }
    }
  })()

let interruptedBy: string | undefined
/** The signal that interrupted the benchmark, if one did. */
export const interrupted = () => interruptedBy

/**
 * On Ctrl-C, SIGTERM or an uncaught failure: stop the children, then exit. The `exit` hook is the
 * last resort (it runs synchronously, so it can only SIGKILL).
 */
export const installCleanup = (): void => {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      interruptedBy = signal
      console.error(`\n${signal}: stopping ${running.size} child process(es)`)
      void stopAll().finally(() => process.exit(130))
    })
  }
  process.on("exit", () => {
    for (const child of running) child.process.kill("SIGKILL")
  })
}

/** A port nobody listens on right now (the OS picks it; the child binds it a moment later). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = Net.createServer().once("error", reject).listen(0, "127.0.0.1", () => {
      const port = (server.address() as Net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Polls `check` until it returns a value (not undefined), failing after `timeoutMs` or as soon as
 * `child` exits, with the child's last output in the message.
 */
export const waitFor = async <A>(
  what: string,
  check: () => Promise<A | undefined> | A | undefined,
  options: { readonly timeoutMs: number; readonly child?: Child; readonly everyMs?: number }
): Promise<A> => {
  const deadline = Date.now() + options.timeoutMs
  let exited = false
  void options.child?.exited.then(() => (exited = true))
  while (Date.now() < deadline) {
    const value = await check()
    if (value !== undefined) return value
    if (exited) throw new Error(`${options.child!.name} exited while waiting for ${what}:\n${options.child!.tail()}`)
    await sleep(options.everyMs ?? 100)
  }
  throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${what}${options.child ? `:\n${options.child.tail()}` : ""}`)
}

/** Waits for a child to end on its own and fails loudly when it did not succeed. */
export const completed = async (child: Child): Promise<string> => {
  const code = await child.exited
  if (code !== 0) throw new Error(`${child.name} ended with ${code}:\n${child.tail()}`)
  return child.stdout()
}
