import type { SandboxOptions } from "./index.js"
import { LOOK_ALIKE_PROVIDERS } from "./lookAlikes/LookAlike.js"

/**
 * The sandbox's options from the environment, for every process that starts it (`pnpm sandbox`,
 * `switchyard sandbox`, `switchyard demo`): SANDBOX_SEED (42), SANDBOX_HOST (127.0.0.1),
 * SANDBOX_ATS_PORT (4101), SANDBOX_HRIS_PORT (4102), SANDBOX_LMS_PORT (4103), SANDBOX_MCP_PORT
 * (4104), SANDBOX_OAUTH_PORT (4105), the look-alikes' SANDBOX_<PROVIDER>_PORT (4106 on, in
 * `LOOK_ALIKE_PROVIDERS` order: SANDBOX_ASHBY_PORT 4106, ...), 0 for a free port, and SANDBOX_CLOCK (logical|wall).
 */
/** Every port variable the sandbox reads, e.g. to set each to 0 (free ports) for a process of it. */
export const SANDBOX_PORT_VARIABLES: ReadonlyArray<string> = [
  ...["ATS", "HRIS", "LMS", "MCP", "OAUTH"].map((name) => `SANDBOX_${name}_PORT`),
  ...LOOK_ALIKE_PROVIDERS.map((provider) => `SANDBOX_${provider.toUpperCase()}_PORT`)
]

export const optionsFromEnv = (env: NodeJS.ProcessEnv = process.env): SandboxOptions => {
  const envInt = (name: string, fallback: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === "") return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`)
    return n
  }
  const clock = env["SANDBOX_CLOCK"]
  return {
    seed: envInt("SANDBOX_SEED", 42),
    host: env["SANDBOX_HOST"] ?? "127.0.0.1",
    ports: {
      ats: envInt("SANDBOX_ATS_PORT", 4101),
      hris: envInt("SANDBOX_HRIS_PORT", 4102),
      lms: envInt("SANDBOX_LMS_PORT", 4103),
      mcp: envInt("SANDBOX_MCP_PORT", 4104),
      oauth: envInt("SANDBOX_OAUTH_PORT", 4105),
      lookAlikes: Object.fromEntries(
        LOOK_ALIKE_PROVIDERS.map((provider, index) => [provider, envInt(`SANDBOX_${provider.toUpperCase()}_PORT`, 4106 + index)])
      )
    },
    ...(clock === "wall" || clock === "logical" ? { clock } : {})
  }
}
