import { type Child, spawnChild, waitFor } from "./processes.js"
import { serverDir, SOURCE_FLAGS } from "./switchyard.js"

/** Starts the provider stand-in (bench/provider.ts) in its own process; resolves with its URL and key once it listens. */
export const startProviderStandIn = async (): Promise<{
  readonly process: Child
  readonly provider: { readonly baseUrl: string; readonly apiKey: string }
}> => {
  const child = spawnChild("provider stand-in", process.execPath, [...SOURCE_FLAGS, "bench/provider.ts"], { cwd: serverDir, env: process.env })
  // It prints {"baseUrl","apiKey"} as its first line once listening.
  const provider = await waitFor("the provider stand-in's URL", () => {
    const line = child.stdout().split("\n")[0]
    return line?.startsWith("{") && child.stdout().includes("\n") ? JSON.parse(line) as { baseUrl: string; apiKey: string } : undefined
  }, { timeoutMs: 60_000, child })
  return { process: child, provider }
}
