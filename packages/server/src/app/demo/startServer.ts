import { type ChildProcess, spawn } from "node:child_process"

/** The server (main.js beside this module in dist/) as a child process with `env`, once it answers /readyz at `base`. */
export const startServer = async (base: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> => {
  // Its own process group: a Ctrl-C reaches the demo only, which stops the server with one
  // SIGTERM (a second signal while it drains would kill it mid-shutdown).
  const server = spawn(process.execPath, [new URL("./main.js", import.meta.url).pathname], {
    env,
    stdio: "inherit",
    detached: true
  })
  const exited = new Promise<never>((_, reject) =>
    server.once("exit", (code, signal) => reject(new Error(`the server stopped before it was ready (exit ${code ?? signal}; its output above says why, e.g. PORT in use)`)))
  )
  const ready = (async () => {
    for (;;) {
      const ok = await fetch(`${base}/readyz`).then((response) => response.ok, () => false)
      if (ok) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  await Promise.race([ready, exited])
  // the demo watches for a later exit itself
  exited.catch(() => {})
  return server
}
