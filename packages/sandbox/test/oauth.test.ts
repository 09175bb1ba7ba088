import { createHash, randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSandbox, type Sandbox } from "../src/index.js"
import { basic, json } from "./support.js"

let sb: Sandbox
const REDIRECT = "http://127.0.0.1:9/callback"

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, oauth: { accessTokenTtlSeconds: 60 } })
})
afterAll(async () => {
  await sb.close()
})

const pkce = (): { verifier: string; challenge: string } => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

const unescape = (text: string): string => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

/** The consent page's forms: action, hidden fields and the button's label. */
const forms = (html: string): Array<{ action: string; fields: Record<string, string>; button: string }> =>
  [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)].map((m) => ({
    action: unescape(m[1] as string),
    fields: Object.fromEntries([...(m[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [f[1] as string, unescape(f[2] as string)])),
    button: /<button[^>]*>([^<]*)<\/button>/.exec(m[2] as string)?.[1] ?? ""
  }))

const authorizeUrl = (params: Record<string, string>): string => `${sb.oauth.authorizeUrl}?${new URLSearchParams(params).toString()}`

/** GET the consent page, press `button`, and answer the redirect's URL (not followed). */
const consent = async (challenge: string, button: "Allow" | "Deny", state = "st-1"): Promise<URL> => {
  const pageRes = await fetch(authorizeUrl({ response_type: "code", client_id: sb.oauth.clientId, redirect_uri: REDIRECT, state, scope: "opportunities:read:admin postings:read:admin offline_access", code_challenge: challenge, code_challenge_method: "S256" }))
  expect(pageRes.status).toBe(200)
  const form = forms(await pageRes.text()).find((f) => f.button === button)
  if (form === undefined) throw new Error(`no ${button} form`)
  const res = await fetch(new URL(form.action, sb.oauth.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form.fields).toString(), redirect: "manual" })
  expect(res.status).toBe(302)
  return new URL(res.headers.get("location") as string)
}

const token = (fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(sb.oauth.tokenUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() })

const client = (): Record<string, string> => ({ client_id: sb.oauth.clientId, client_secret: sb.oauth.clientSecret })

type Tokens = { access_token: string; token_type: string; expires_in: number; refresh_token: string; scope: string }

/** The whole code flow with PKCE: consent, Allow, exchange. */
const connect = async (): Promise<Tokens> => {
  const { verifier, challenge } = pkce()
  const back = await consent(challenge, "Allow")
  const res = await token({ grant_type: "authorization_code", code: back.searchParams.get("code") as string, redirect_uri: REDIRECT, code_verifier: verifier, ...client() })
  expect(res.status).toBe(200)
  return json<Tokens>(res)
}

const api = (path: string, accessToken: string): Promise<Response> => fetch(`${sb.oauth.baseUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` } })

describe("OAuth2 provider: authorization code flow with PKCE", () => {
  it("shows an accessible consent page and redirects Allow with code and state", async () => {
    const { verifier, challenge } = pkce()
    const pageRes = await fetch(authorizeUrl({ response_type: "code", client_id: sb.oauth.clientId, redirect_uri: REDIRECT, state: "xyz", code_challenge: challenge, code_challenge_method: "S256" }))
    expect(pageRes.headers.get("content-type")).toContain("text/html")
    // browsers apply form-action to the redirect after Allow/Deny: the client's origin must be in it
    expect(pageRes.headers.get("content-security-policy")).toContain("form-action 'self' http://127.0.0.1:9;")
    const html = await pageRes.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toMatch(/<h1>Authorize Switchyard<\/h1>/)
    expect(html).not.toMatch(/<(script|link|img)\b|https?:\/\//)
    expect(forms(html).map((f) => f.button)).toEqual(["Allow", "Deny"])

    const back = await consent(challenge, "Allow", "xyz")
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get("state")).toBe("xyz")
    const code = back.searchParams.get("code") as string
    expect(code).toBeTruthy()

    const before = sb.oauth.tokenRequests()["authorization_code"] ?? 0
    const res = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, { authorization: basic(sb.oauth.clientId, sb.oauth.clientSecret) })
    expect(res.status).toBe(200)
    expect(res.headers.get("cache-control")).toBe("no-store")
    const tokens = await json<Tokens>(res)
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 60, scope: "opportunities:read:admin postings:read:admin offline_access" })
    expect(tokens.access_token).toBeTruthy()
    expect(tokens.refresh_token).toBeTruthy()
    expect(sb.oauth.tokenRequests()["authorization_code"]).toBe(before + 1)

    const postings = await api("/postings", tokens.access_token)
    expect(postings.status).toBe(200)
    const body = await json<{ data: Array<{ id: string; text: string }>; hasNext: boolean }>(postings)
    expect(body.data.length).toBe(8)
    expect(body.hasNext).toBe(false)
    const one = await json<{ data: { id: string } }>(await api(`/postings/${body.data[0]?.id}`, tokens.access_token))
    expect(one.data.id).toBe(body.data[0]?.id)

    // The code is single use: a second exchange fails, and revokes what the first one gave.
    const again = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, ...client() })
    expect(again.status).toBe(400)
    expect(await json(again)).toMatchObject({ error: "invalid_grant" })
    expect((await api("/postings", tokens.access_token)).status).toBe(401)
  })

  it("refuses a wrong code_verifier, a wrong redirect_uri and bad client credentials", async () => {
    const { verifier, challenge } = pkce()
    const code = (await consent(challenge, "Allow")).searchParams.get("code") as string
    const wrong = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: pkce().verifier, ...client() })
    expect(wrong.status).toBe(400)
    expect(await json(wrong)).toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("code_verifier") })
    const noVerifier = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, ...client() })
    expect(await json(noVerifier)).toMatchObject({ error: "invalid_grant" })
    const otherRedirect = await token({ grant_type: "authorization_code", code, redirect_uri: "http://127.0.0.1:9/other", code_verifier: verifier, ...client() })
    expect(await json(otherRedirect)).toMatchObject({ error: "invalid_grant" })

    const badSecret = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: sb.oauth.clientId, client_secret: "nope" })
    expect(badSecret.status).toBe(401)
    expect(await json(badSecret)).toMatchObject({ error: "invalid_client" })
    const noClient = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier })
    expect(noClient.status).toBe(401)
    const badBasic = await token({ grant_type: "authorization_code", code }, { authorization: basic(sb.oauth.clientId, "nope") })
    expect(badBasic.status).toBe(401)
    expect(badBasic.headers.get("www-authenticate")).toMatch(/^Basic /)

    const json400 = await fetch(sb.oauth.tokenUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "authorization_code", ...client() }) })
    expect(json400.status).toBe(400)
    expect(await json(json400)).toMatchObject({ error: "invalid_request" })
    const unsupported = await token({ grant_type: "password", username: "a", password: "b", ...client() })
    expect(unsupported.status).toBe(400)
    expect(await json(unsupported)).toMatchObject({ error: "unsupported_grant_type" })
    const noCode = await token({ grant_type: "authorization_code", ...client() })
    expect(await json(noCode)).toMatchObject({ error: "invalid_request" })

    // The failed attempts did not use the code up: the right verifier still works once.
    const ok = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, ...client() })
    expect(ok.status).toBe(200)
  })

  it("redirects Deny with error=access_denied and the state", async () => {
    const back = await consent(pkce().challenge, "Deny", "deny-state")
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get("error")).toBe("access_denied")
    expect(back.searchParams.get("state")).toBe("deny-state")
    expect(back.searchParams.get("code")).toBeNull()
  })

  it("never redirects to an unknown client or unregistered redirect_uri; other errors go back to the client", async () => {
    const { challenge } = pkce()
    const base = { response_type: "code", client_id: sb.oauth.clientId, redirect_uri: REDIRECT, state: "s", code_challenge: challenge, code_challenge_method: "S256" }
    for (const params of [{ ...base, client_id: "someone-else" }, { ...base, redirect_uri: "https://evil.example/cb" }, { ...base, redirect_uri: "" }]) {
      const res = await fetch(authorizeUrl(params), { redirect: "manual" })
      expect(res.status).toBe(400)
      expect(res.headers.get("location")).toBeNull()
      expect(await res.text()).toContain("<h1>Authorization error</h1>")
    }
    const plain = await fetch(authorizeUrl({ ...base, code_challenge_method: "plain" }), { redirect: "manual" })
    expect(plain.status).toBe(302)
    expect(new URL(plain.headers.get("location") as string).searchParams.get("error")).toBe("invalid_request")
    const scope = await fetch(authorizeUrl({ ...base, scope: "everything" }), { redirect: "manual" })
    expect(new URL(scope.headers.get("location") as string).searchParams.get("error")).toBe("invalid_scope")
    // A consent form is answered once.
    const html = await (await fetch(authorizeUrl(base))).text()
    const allow = forms(html).find((f) => f.button === "Allow")
    const post = (): Promise<Response> =>
      fetch(new URL(allow?.action as string, sb.oauth.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(allow?.fields).toString(), redirect: "manual" })
    expect((await post()).status).toBe(302)
    expect((await post()).status).toBe(400)
  })

  it("accepts only the registered redirect URIs when some are configured", async () => {
    const strict = await startSandbox({ seed: 11, counts: { applications: 1, candidates: 1, employees: 1, users: 1, courses: 1 }, oauth: { redirectUris: ["https://app.example/cb"] } })
    try {
      const { challenge } = pkce()
      const url = (redirect: string): string =>
        `${strict.oauth.authorizeUrl}?${new URLSearchParams({ response_type: "code", client_id: strict.oauth.clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256" }).toString()}`
      expect((await fetch(url("https://app.example/cb"))).status).toBe(200)
      expect((await fetch(url("http://127.0.0.1:9/callback"), { redirect: "manual" })).status).toBe(400)
      expect(strict.oauth.clientId).toBe(sb.oauth.clientId)
    } finally {
      await strict.close()
    }
  })
})

describe("OAuth2 provider: tokens", () => {
  it("rotates the refresh token; reusing a rotated one revokes the grant", async () => {
    const first = await connect()
    sb.oauth.clearTokenRequests()
    const res = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token, ...client() })
    expect(res.status).toBe(200)
    const second = await json<Tokens>(res)
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(second.access_token).not.toBe(first.access_token)
    expect(sb.oauth.tokenRequests()).toEqual({ refresh_token: 1 })
    const logged = sb.requests("oauth").filter((r) => r.path === "/oauth/token").at(-1)
    expect(logged?.body).toContain("grant_type=refresh_token")
    expect(logged?.body).not.toContain(first.refresh_token)
    expect(logged?.body).not.toContain(sb.oauth.clientSecret)
    expect(await json(await fetch(`${sb.oauth.url}/_sandbox/oauth/token-requests`))).toEqual({ refresh_token: 1 })
    expect((await api("/opportunities?limit=1", second.access_token)).status).toBe(200)

    const reuse = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token, ...client() })
    expect(reuse.status).toBe(400)
    expect(await json(reuse)).toMatchObject({ error: "invalid_grant" })
    // The whole grant is gone: the newest refresh token and its access token too.
    expect(await json(await token({ grant_type: "refresh_token", refresh_token: second.refresh_token, ...client() }))).toMatchObject({ error: "invalid_grant" })
    const denied = await api("/opportunities", second.access_token)
    expect(denied.status).toBe(401)
    expect(denied.headers.get("www-authenticate")).toContain('error="invalid_token"')
  })

  it("expires access tokens on the sandbox clock; refresh gives a working one", async () => {
    const tokens = await connect()
    expect((await api("/opportunities?limit=1", tokens.access_token)).status).toBe(200)
    sb.clock.advance(59_000)
    expect((await api("/opportunities?limit=1", tokens.access_token)).status).toBe(200)
    const advanced = await fetch(`${sb.oauth.url}/_sandbox/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seconds: 1 }) })
    expect(advanced.status).toBe(200)
    const expired = await api("/opportunities?limit=1", tokens.access_token)
    expect(expired.status).toBe(401)
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/)

    const unknown = await api("/opportunities", "not-a-token")
    expect(unknown.status).toBe(401)
    expect(unknown.headers.get("www-authenticate")).toContain('error="invalid_token"')
    const missing = await fetch(`${sb.oauth.baseUrl}/opportunities`)
    expect(missing.status).toBe(401)
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer /)

    const refreshed = await json<Tokens>(await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, ...client() }))
    expect((await api("/opportunities?limit=1", refreshed.access_token)).status).toBe(200)
  })

  it("codes expire after 60 seconds", async () => {
    const { verifier, challenge } = pkce()
    const code = (await consent(challenge, "Allow")).searchParams.get("code") as string
    sb.clock.advance(60_000)
    const res = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, ...client() })
    expect(await json(res)).toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("expired") })
  })

  it("revoking through the admin API makes refresh fail with invalid_grant", async () => {
    const tokens = await connect()
    const revoked = await fetch(`${sb.ats.url}/_sandbox/oauth/revoke`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ refresh_token: tokens.refresh_token }) })
    expect(await json(revoked)).toEqual({ revoked: 1 })
    const res = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, ...client() })
    expect(res.status).toBe(400)
    expect(await json(res)).toMatchObject({ error: "invalid_grant" })
    expect((await api("/postings", tokens.access_token)).status).toBe(401)

    const other = await connect()
    expect(sb.oauth.revoke({ clientId: sb.oauth.clientId })).toBeGreaterThanOrEqual(1)
    expect(await json(await token({ grant_type: "refresh_token", refresh_token: other.refresh_token, ...client() }))).toMatchObject({ error: "invalid_grant" })
    expect((await fetch(`${sb.oauth.url}/_sandbox/oauth/revoke`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(400)
  })
})

describe("OAuth2 provider: recruiting API (Lever v1 shape)", () => {
  it("pages through opportunities with limit and the next offset token", async () => {
    const { access_token } = await connect()
    const seen: Array<{ id: string; name: string; stage: string; createdAt: number }> = []
    let url = "/opportunities?limit=25"
    let pages = 0
    for (;;) {
      const res = await api(url, access_token)
      expect(res.status).toBe(200)
      const page = await json<{ data: typeof seen; hasNext: boolean; next?: string }>(res)
      seen.push(...page.data)
      pages++
      if (!page.hasNext) {
        expect(page.next).toBeUndefined()
        break
      }
      url = `/opportunities?limit=25&offset=${encodeURIComponent(page.next as string)}`
    }
    expect(pages).toBe(3)
    expect(seen.length).toBe(60)
    expect(new Set(seen.map((o) => o.id)).size).toBe(60)
    expect(seen.map((o) => o.createdAt)).toEqual([...seen.map((o) => o.createdAt)].sort((a, b) => b - a))
    expect(seen[0]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: expect.any(String), stage: expect.any(String), emails: expect.any(Array) })
    expect(seen[0]).not.toHaveProperty("postingId")

    const one = await json<{ data: { id: string } }>(await api(`/opportunities/${seen[7]?.id}`, access_token))
    expect(one.data).toEqual(seen[7])
    expect((await api("/opportunities/00000000-0000-4000-8000-000000000000", access_token)).status).toBe(404)
    expect((await api("/opportunities?limit=0", access_token)).status).toBe(400)
    expect((await api("/opportunities?offset=garbage", access_token)).status).toBe(400)

    const stage = seen[0]?.stage as string
    const filtered = await json<{ data: typeof seen }>(await api(`/opportunities?stage_id=${stage}`, access_token))
    expect(filtered.data.length).toBe(seen.filter((o) => o.stage === stage).length)
  })

  it("is the same for the same seed", async () => {
    const twin = await startSandbox({ seed: 11, counts: { applications: 1, candidates: 1, employees: 1, users: 1, courses: 1 } })
    try {
      expect(twin.oauth.clientSecret).toBe(sb.oauth.clientSecret)
      const mine = await json<{ data: Array<unknown> }>(await api("/opportunities?limit=5", (await connect()).access_token))
      const { challenge, verifier } = pkce()
      const page = await fetch(`${twin.oauth.authorizeUrl}?${new URLSearchParams({ response_type: "code", client_id: twin.oauth.clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256" }).toString()}`)
      const allow = forms(await page.text()).find((f) => f.button === "Allow")
      const back = await fetch(new URL(allow?.action as string, twin.oauth.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(allow?.fields).toString(), redirect: "manual" })
      const code = new URL(back.headers.get("location") as string).searchParams.get("code") as string
      const tokens = await json<Tokens>(
        await fetch(twin.oauth.tokenUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(twin.oauth.clientId, twin.oauth.clientSecret) }, body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }).toString() })
      )
      const theirs = await json<{ data: Array<unknown> }>(await fetch(`${twin.oauth.baseUrl}/opportunities?limit=5`, { headers: { authorization: `Bearer ${tokens.access_token}` } }))
      expect(theirs.data).toEqual(mine.data)
      // Tokens are not seeded: one sandbox's token means nothing to another.
      expect((await api("/opportunities?limit=5", tokens.access_token)).status).toBe(401)
    } finally {
      await twin.close()
    }
  })
})
