import type { Sandbox } from "@switchyard/sandbox"
import type { DemoApi } from "./DemoApi.js"

/** One call the demo prints for pasting, having made it first to show it answers. */
export interface DemoCall {
  readonly title: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: unknown
  /** What the answer shows, e.g. "5 records"; fails when it shows nothing. */
  readonly summarize: (answer: any) => string
}

const records = (what: string) => (answer: any): string => {
  const data = answer?.data
  if (!Array.isArray(data) || data.length === 0) throw new Error(`no ${what} in the answer: ${JSON.stringify(answer).slice(0, 300)}`)
  return `${data.length} ${what}`
}

/**
 * A TalentLMS user of the sandbox enrolled in some course (the LMS's unified list is per user),
 * read from the sandbox's own API as its documentation would have a user look one up.
 */
const enrolledLmsUser = async (sandbox: Sandbox): Promise<string> => {
  const read = async (path: string) => {
    const response = await fetch(`${sandbox.lms.baseUrl}${path}`, {
      headers: { authorization: `Basic ${Buffer.from(`${sandbox.lms.apiKey}:`).toString("base64")}` }
    })
    if (!response.ok) throw new Error(`the sandbox's LMS answered ${response.status} to ${path}`)
    return response.json() as Promise<any>
  }
  for (const user of await read("/users")) {
    if ((await read(`/users/id:${user.id}`)).courses.length > 0) return String(user.id)
  }
  throw new Error("no user of the sandbox's LMS is enrolled in a course")
}

/** The unified list of each category (HRIS has none in the API: its list action runs through /actions/rpc), and MCP. */
export const demoCalls = async (
  sandbox: Sandbox,
  accounts: { readonly greenhouse: string; readonly bamboohr: string; readonly talentlms: string; readonly lever: string }
): Promise<ReadonlyArray<DemoCall>> => [
  {
    title: "ATS (Greenhouse sandbox): unified applications",
    method: "GET",
    path: "/unified/ats/applications?page_size=5&fields=id,candidate_id,status",
    headers: { "x-account-id": accounts.greenhouse },
    summarize: records("applications")
  },
  {
    title: "ATS (Lever sandbox, OAuth2): the same unified shape from another provider, candidates",
    method: "GET",
    path: "/unified/ats/candidates?page_size=5",
    headers: { "x-account-id": accounts.lever },
    summarize: records("candidates")
  },
  {
    title: "LMS (TalentLMS sandbox): one user's unified course assignments",
    method: "GET",
    path: `/unified/lms/users/${await enrolledLmsUser(sandbox)}/assignments?page_size=5`,
    headers: { "x-account-id": accounts.talentlms },
    summarize: records("assignments")
  },
  {
    title: "HRIS (BambooHR sandbox): employees, running the connector's list action (POST /actions/rpc)",
    method: "POST",
    path: "/actions/rpc",
    headers: { "x-account-id": accounts.bamboohr },
    body: { action: "hris_list_employees", query: { page_size: 5 } },
    summarize: records("employees")
  },
  {
    title: "MCP: the Greenhouse account's actions as tools (tools/list; /mcp wants this Accept header)",
    method: "POST",
    path: "/mcp",
    headers: { "x-account-id": accounts.greenhouse, accept: "application/json, text/event-stream" },
    body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    summarize: (answer) => {
      const tools = answer?.result?.tools
      if (!Array.isArray(tools) || tools.length === 0) throw new Error(`no tools in the answer: ${JSON.stringify(answer).slice(0, 300)}`)
      return `${tools.length} tools`
    }
  }
]

/** Makes the call; what its answer shows. */
export const runCall = async (api: DemoApi, call: DemoCall): Promise<string> =>
  call.summarize(await api.call(call.method, call.path, call.body, call.headers))

const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/** The call as a curl command for a shell where KEY holds the key. */
export const curlOf = (base: string, call: DemoCall): string =>
  [
    `curl -u "$KEY:"${call.method === "GET" ? "" : ` -X ${call.method}`} ${quoted(`${base}${call.path}`)}`,
    ...Object.entries(call.headers).map(([name, value]) => `-H ${quoted(`${name}: ${value}`)}`),
    ...(call.body === undefined ? [] : [`-H 'content-type: application/json' -d ${quoted(JSON.stringify(call.body))}`])
  ].join(" \\\n    ")
