/*
 * The introduction of the API reference: OpenAPI's `info.description` (Markdown), which the
 * docs page (`GET /docs`) shows above the operations and `/openapi.json` carries for any other
 * viewer. The README is not served and the project has no public address yet, so its guides
 * are named by their section titles (a test checks that each names a README section).
 */

/** The README sections the introduction points to, with what each covers. */
export const README_GUIDES: ReadonlyArray<readonly [section: string, about: string]> = [
  ["Try it: the sandbox quick start", "one command: the server, simulated providers and linked accounts to call"],
  ["Quick start", "start the server on its embedded database and get the first API key"],
  ["Using the API", "linking and listing accounts, pagination, errors and request limits"],
  ["Connectors and connector profiles", "the catalog, custom connectors, and which version and actions a project uses"],
  ["Unified API", "provider data in one shape, cursors, filters, the proxy and what an account can serve"],
  ["Running actions", "`POST /actions/rpc`, provider failures, rate limits and idempotency keys"],
  ["Request logs", "every action run, with its provider calls"],
  ["Linking accounts through the hosted connect page", "connect sessions: let end users link their own accounts"],
  ["Webhooks", "events, signatures, retries and deliveries"],
  ["OAuth2 connectors (Lever)", "linking through the project's OAuth app"],
  ["Sandbox providers", "simulated providers to try everything locally"],
  ["API key scopes", "what each scope may call"],
  ["Connecting an MCP client (`/mcp`)", "the connector actions of one account as MCP tools"],
  ["Typed client", "`@switchyard/client`, with or without Effect"],
  ["Managing projects and keys", "the admin CLI"],
  ["Configuration", "every environment variable"]
]

export const API_INTRODUCTION = [
  "Switchyard is an open, self-hostable integration platform. Your customers link their HR, recruiting and " +
  "learning systems as **accounts**; Switchyard runs declarative **connector** actions against those providers " +
  "and serves their data in one unified shape (ATS, HRIS, LMS) over this HTTP API, a typed TypeScript client " +
  "(`@switchyard/client`, derived from the same API definition) and MCP for AI agents (`/mcp`).",
  "",
  "## Authentication",
  "",
  "Every operation except `/healthz`, `/readyz` and the connect page's own calls (whose connect session token " +
  "is the credential) takes an API key through **HTTP Basic: the key is the username, the password is empty** " +
  "(`Authorization: Basic` followed by the base64 of the key and a colon):",
  "",
  "```sh",
  "curl -u \"$KEY:\" http://127.0.0.1:4000/v2/accounts",
  "```",
  "",
  "A key belongs to one project. The server's first start creates a default organization and project and " +
  "prints a Full Access key **once** (or registers `SWITCHYARD_BOOTSTRAP_API_KEY` as that key when it is set). " +
  "Create more, list and revoke them with the admin CLI, which works on the server's database:",
  "",
  "```sh",
  "npx --yes pnpm@9.15.9 switchyard keys create \\",
  "  --scope read_only --name dashboards",
  "```",
  "",
  "Keys are shown once and stored only as hashes. Scopes: `full_access` (everything), `read_only` (GET " +
  "requests only), `accounts` (`/v2/accounts`, `/connect_sessions`) and `actions` (`/actions/rpc`, `/mcp`, " +
  "`/unified/...`). A missing, unknown or revoked key answers 401; a scope that does not allow the call, 403.",
  "",
  "## Conventions",
  "",
  "- Unified operations (`/unified/...`) and `POST /actions/rpc` act for one linked account: its id goes in " +
  "the `x-account-id` header.",
  "- Every error is `{statusCode, message, timestamp}` (a 400 may add `data` and `provider_errors`); 408 and " +
  "429 carry `Retry-After`.",
  "- Platform lists (`/v2/...`) answer a bare array, or the envelope `{data, page, page_size, total, " +
  "next_page}` when `page` or `page_size` is given; unified lists, webhooks and request logs are paged with the " +
  "opaque cursor in each answer's `next`.",
  "- Request bodies are JSON (`application/json`).",
  "",
  "## Guides",
  "",
  "The guides are sections of `README.md` at the root of the Switchyard repository (this server does not " +
  "serve it):",
  "",
  ...README_GUIDES.map(([section, about]) => `- **${section}**: ${about}.`)
].join("\n")
