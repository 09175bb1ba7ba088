/*
 * The provider stand-in, run as its own process (`node --import tsx bench/provider.ts`) so
 * that its CPU and memory are not mixed into either proxy: the sandbox's Greenhouse look-alike
 * on a free port, announced as one JSON line `{"baseUrl", "apiKey"}` on stdout.
 */
import { startSandbox } from "@switchyard/sandbox"

const sandbox = await startSandbox({ seed: 1 })
console.log(JSON.stringify({ baseUrl: sandbox.ats.baseUrl, apiKey: sandbox.ats.apiKey }))

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0))
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
