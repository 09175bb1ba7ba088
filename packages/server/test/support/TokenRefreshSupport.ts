import type { Sandbox } from "@switchyard/sandbox"
import { createHash, randomBytes } from "node:crypto"
import * as Http from "node:http"

/*
 * What the token refresh tests share: a small authorization-code OAuth2 connector for the
 * sandbox's provider, tokens got through its consent page, and a gate in front of its token
 * endpoint that holds token requests until the test lets them through.
 */

export const REDIRECT = "http://127.0.0.1:9/callback"

/**
 * A custom connector whose one method is authorization-code OAuth2 against `tokenUrl` (the
 * sandbox's, or a gate in front of it), with one action listing the provider's opportunities.
 */
export const oauthConnectorYaml = (options: { readonly key: string; readonly authorizeUrl: string; readonly tokenUrl: string }) => `StackOne: 1.0.0
info:
  title: OAuth sandbox
  key: ${options.key}
  version: 1.0.0
  description: Lever-shaped opportunities behind OAuth2 bearer tokens
  categories:
    - ats
baseUrl: https://api.example.com/v1
authentication:
  - oauth2:
      type: oauth2
      label: OAuth
      grantType: authorization_code
      authorizationUrl: ${options.authorizeUrl}
      tokenUrl: ${options.tokenUrl}
      scopes:
        - offline_access
        - opportunities:read:admin
      setupFields:
        - key: clientId
          label: Client ID
          type: text
          required: true
        - key: clientSecret
          label: Client secret
          type: password
          required: true
          secret: true
      authorization:
        type: oauth2
        token: $.credentials.accessToken
actions:
  - actionId: list_opportunities
    categories: [ats]
    actionType: list
    label: List opportunities
    description: The first few opportunities
    steps:
      - stepId: fetch
        stepFunction:
          functionName: request
          parameters:
            url: /opportunities
            method: get
            args:
              - name: limit
                value: 3
                in: query
    result:
      data: $.steps.fetch.output.data.data
`

export interface SandboxTokens {
  readonly access_token: string
  readonly refresh_token: string
  readonly expires_in: number
}

/** Tokens from the sandbox's provider the way an end user gives them: consent page, Allow, code exchanged. */
export const sandboxTokens = async (sandbox: Sandbox): Promise<SandboxTokens> => {
  const verifier = randomBytes(32).toString("base64url")
  const authorize = new URL(sandbox.oauth.authorizeUrl)
  for (
    const [key, value] of Object.entries({
      response_type: "code",
      client_id: sandbox.oauth.clientId,
      redirect_uri: REDIRECT,
      state: randomBytes(8).toString("hex"),
      scope: "offline_access opportunities:read:admin",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256"
    })
  ) authorize.searchParams.set(key, value)
  const back = await sandbox.oauth.consent(authorize.toString(), "Allow")
  const code = back.searchParams.get("code")
  if (code === null) throw new Error(`consent came back without a code: ${back.search}`)
  const exchanged = await fetch(sandbox.oauth.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: sandbox.oauth.clientId,
      client_secret: sandbox.oauth.clientSecret
    }).toString()
  })
  if (exchanged.status !== 200) throw new Error(`code exchange answered ${exchanged.status}`)
  return (await exchanged.json()) as SandboxTokens
}

/** How many refresh_token grants the sandbox's token endpoint received. */
export const refreshGrants = (sandbox: Sandbox): number => sandbox.oauth.tokenRequests()["refresh_token"] ?? 0

/** Requests the sandbox's recruiting API received for the opportunities list. */
export const opportunityCalls = (sandbox: Sandbox): number =>
  sandbox.requests("oauth").filter((request) => request.method === "GET" && request.path === "/v1/opportunities").length

/**
 * A proxy in front of the sandbox's token endpoint that holds each request until `open` is
 * called (then forwards it as it came), so a test decides when a refresh may complete
 * instead of hoping for an interleaving. `rewrite` changes the provider's JSON answers.
 */
export interface TokenGate {
  readonly url: string
  /** Requests that reached the gate. */
  readonly arrived: () => number
  /** Lets the held requests and later ones through. */
  readonly open: () => void
  /** Holds the requests that arrive from now on (until `open`). */
  readonly hold: () => void
  readonly close: () => Promise<void>
}

export const startTokenGate = (
  target: string,
  options: { readonly open?: boolean; readonly rewrite?: (answer: Record<string, unknown>) => Record<string, unknown> } = {}
): Promise<TokenGate> =>
  new Promise((resolve) => {
    let arrived = 0
    let open: () => void = () => {}
    let opened = Promise.resolve()
    const hold = () => {
      opened = new Promise<void>((release) => (open = release))
    }
    if (options.open !== true) hold()
    const forward = async (request: Http.IncomingMessage, body: Buffer, response: Http.ServerResponse) => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && !["host", "content-length", "connection"].includes(name)) headers[name] = value
      }
      const answer = await fetch(target, { method: request.method ?? "POST", headers, body })
      let text = await answer.text()
      if (options.rewrite !== undefined && answer.ok) text = JSON.stringify(options.rewrite(JSON.parse(text) as Record<string, unknown>))
      const kept: Record<string, string> = {}
      for (const name of ["content-type", "cache-control", "www-authenticate"]) {
        const value = answer.headers.get(name)
        if (value !== null) kept[name] = value
      }
      response.writeHead(answer.status, kept)
      response.end(text)
    }
    const server = Http.createServer((request, response) => {
      arrived++
      const gate = opened
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        gate.then(() => forward(request, Buffer.concat(chunks), response)).catch(() => response.destroy())
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      resolve({
        url: `http://127.0.0.1:${port}/oauth/token`,
        arrived: () => arrived,
        open: () => open(),
        hold,
        close: () =>
          new Promise((closed) => {
            server.closeAllConnections()
            server.close(() => closed())
          })
      })
    })
  })
