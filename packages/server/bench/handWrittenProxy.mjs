/*
 * The hand-written proxy the benchmark compares Switchyard with: what a user would write instead
 * of Switchyard for one provider, in plain JavaScript on node:http and the global fetch, no
 * framework. It fetches a Greenhouse page, maps the same fields the shipped Greenhouse connector
 * maps for ats_list_applications / ats_get_application (greenhouse/1.3.0.yaml, `application_fields`)
 * and answers the unified shape. Run: node handWrittenProxy.mjs <port> <providerBaseUrl> <providerApiKey>
 * (or PORT, PROVIDER_BASE_URL, PROVIDER_API_KEY). Prints "listening <port>" once it accepts.
 */
import http from "node:http"
import { mapApplication } from "./mapApplication.mjs"

const port = Number(process.argv[2] ?? process.env.PORT ?? 0)
const baseUrl = process.argv[3] ?? process.env.PROVIDER_BASE_URL
const apiKey = process.argv[4] ?? process.env.PROVIDER_API_KEY
if (!baseUrl || !apiKey) {
  console.error("usage: node handWrittenProxy.mjs <port> <providerBaseUrl> <providerApiKey>")
  process.exit(2)
}
const providerAuth = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`

const answer = (res, status, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const provider = async (path) => {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: providerAuth, accept: "application/json" } })
  return { response, body: await response.json() }
}

const server = http.createServer(async (req, res) => {
  try {
    // A real proxy authenticates its caller; a cheap presence check stands in for that here.
    if (!req.headers.authorization) return answer(res, 401, { error: "unauthorized" })
    const url = new URL(req.url, "http://proxy")
    if (req.method === "GET" && url.pathname === "/applications") {
      const pageSize = Number(url.searchParams.get("page_size") ?? 25)
      const page = Number(url.searchParams.get("next") ?? 1)
      const { response, body } = await provider(`/applications?per_page=${pageSize}&page=${page}`)
      if (!response.ok) return answer(res, 502, { error: `provider answered ${response.status}` })
      const next = (response.headers.get("link") ?? "").includes('rel="next"') ? String(page + 1) : null
      return answer(res, 200, { data: body.map(mapApplication), next })
    }
    const one = /^\/applications\/([^/]+)$/.exec(url.pathname)
    if (req.method === "GET" && one) {
      const { response, body } = await provider(`/applications/${encodeURIComponent(one[1])}`)
      if (response.status === 404) return answer(res, 404, { error: "not found" })
      if (!response.ok) return answer(res, 502, { error: `provider answered ${response.status}` })
      return answer(res, 200, { data: mapApplication(body) })
    }
    answer(res, 404, { error: "not found" })
  } catch (error) {
    answer(res, 502, { error: String(error) })
  }
})

server.listen(port, "127.0.0.1", () => console.log(`listening ${server.address().port}`))
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)))
