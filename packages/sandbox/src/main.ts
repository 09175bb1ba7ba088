import { LOOK_ALIKES, startSandbox } from "./index.js"
import { optionsFromEnv } from "./optionsFromEnv.js"

/** `pnpm sandbox`: starts every provider and prints where they are (environment: see optionsFromEnv). */

const sandbox = await startSandbox(optionsFromEnv())
const basic = (user: string, password = ""): string => Buffer.from(`${user}:${password}`).toString("base64")

console.log(`Switchyard sandbox (seed ${sandbox.seed})

ATS  (Greenhouse Harvest v1)  ${sandbox.ats.baseUrl}
     API key: ${sandbox.ats.apiKey}   (Basic auth: key as username, empty password)
     On-Behalf-Of for writes: ${sandbox.ats.onBehalfOf}
     try: curl -H 'Authorization: Basic ${basic(sandbox.ats.apiKey)}' '${sandbox.ats.baseUrl}/applications?per_page=2' -i

HRIS (BambooHR)               ${sandbox.hris.baseUrl}
     API key: ${sandbox.hris.apiKey}   (Basic auth: key as username, password "x")
     try: curl -H 'Accept: application/json' -u ${sandbox.hris.apiKey}:x '${sandbox.hris.baseUrl}/employees/directory'

LMS  (TalentLMS v1)           ${sandbox.lms.baseUrl}
     API key: ${sandbox.lms.apiKey}   (Basic auth: key as username, empty password)

MCP  (Streamable HTTP)        ${sandbox.mcp.url}
     protected:               ${sandbox.mcp.protectedUrl}   (Authorization: Bearer ${sandbox.mcp.token})

OAuth2 (Lever v1 look-alike)  ${sandbox.oauth.baseUrl}
     authorize: ${sandbox.oauth.authorizeUrl}   token: ${sandbox.oauth.tokenUrl}   (code flow, PKCE S256)
     client_id: ${sandbox.oauth.clientId}   client_secret: ${sandbox.oauth.clientSecret}
     lever profile account_settings: {"base_url": "${sandbox.oauth.baseUrl}", "auth_base_url": "${sandbox.oauth.url}"}
     perform_as (Lever user for writes): ${sandbox.oauth.performAs}
     redirect URIs: any http://127.0.0.1 or http://localhost URI

${LOOK_ALIKES.map((lookAlike) => {
  const info = sandbox.lookAlikes[lookAlike.provider]!
  const credentials = Object.entries(info.credentials).map(([name, value]) => `${name}: ${value}`).join("   ")
  return [`${`${lookAlike.title} `.padEnd(30)}${info.baseUrl}`, `     ${credentials}`, ...(lookAlike.usage?.(info) ?? []).map((line) => `     ${line}`), ""].join("\n")
}).join("\n")}
Admin on every origin: GET /_sandbox, POST|GET|DELETE /_sandbox/faults, GET|DELETE /_sandbox/requests, POST /_sandbox/reset,
  GET|POST /_sandbox/clock, GET /_sandbox/oauth, POST /_sandbox/oauth/revoke, GET|DELETE /_sandbox/oauth/token-requests
Per request: x-sandbox-fault: latency=250 | status=503 | rate_limit=2 | timeout | reset | malformed_json | oversized=5
`)

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0))
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
