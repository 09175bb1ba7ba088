import type { Sandbox } from "@switchyard/sandbox"
import type { DemoApi } from "./DemoApi.js"

/** Owner of the accounts the demo links, so that a later run finds them (and only them). */
export const DEMO_OWNER = "switchyard-demo"

/** A provider of the sandbox as a connector profile, and how to link an account to it (none for OAuth2). */
interface SandboxProvider {
  readonly connector_key: string
  /** Also how a later run finds the profile again. */
  readonly label: string
  readonly account_settings: Record<string, string>
  readonly setup?: Record<string, string>
  /** The credentials of the connector's authentication config_fields (GET /v2/connectors), for a link by API; none for OAuth2 (consent). */
  readonly credentials?: Record<string, string>
}

/**
 * One profile per sandbox provider, each pointing its connector at the sandbox (base_url, so
 * that calls and the connect page's credential check go there, not to the real provider). Lever
 * authenticates with OAuth2: its profile holds the sandbox's OAuth app, and its account links
 * through the sandbox's consent page.
 */
export const sandboxProviders = (sandbox: Sandbox): ReadonlyArray<SandboxProvider> => [
  {
    connector_key: "greenhouse",
    label: "Greenhouse sandbox",
    // writes act as this Greenhouse user (a setting: as a credential it would be redacted from bodies)
    account_settings: { base_url: sandbox.ats.baseUrl, onBehalfOf: String(sandbox.ats.onBehalfOf) },
    credentials: { apiKey: sandbox.ats.apiKey }
  },
  {
    connector_key: "bamboohr",
    label: "BambooHR sandbox",
    account_settings: { base_url: sandbox.hris.baseUrl },
    // the subdomain is part of BambooHR's URL; base_url already names the sandbox's (companyDomain)
    credentials: { subdomain: sandbox.hris.companyDomain, apiKey: sandbox.hris.apiKey }
  },
  {
    connector_key: "talentlms",
    label: "TalentLMS sandbox",
    account_settings: { base_url: sandbox.lms.baseUrl },
    credentials: { domain: sandbox.hris.companyDomain, apiKey: sandbox.lms.apiKey }
  },
  {
    connector_key: "lever",
    label: "Lever sandbox",
    account_settings: { base_url: sandbox.oauth.baseUrl, auth_base_url: sandbox.oauth.url },
    setup: { clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret }
  }
]

/** Rows of a list operation, whether it answered a bare array or a page envelope. */
const rows = (answer: any): Array<any> => (Array.isArray(answer) ? answer : answer.data)

/** The demo's profile of a connector: found by connector and label and brought up to date (ports may differ from the last run), else created. */
const profileFor = async (api: DemoApi, provider: SandboxProvider): Promise<{ id: string }> => {
  const found = rows(await api.call("GET", `/v2/connector_profiles?connector_key=${provider.connector_key}&page_size=100`))
    .find((profile) => profile.label === provider.label)
  const body = { account_settings: provider.account_settings, ...(provider.setup === undefined ? {} : { setup: provider.setup }) }
  if (found !== undefined) return api.call("PATCH", `/v2/connector_profiles/${found.id}`, { ...body, active: true })
  return api.call("POST", "/v2/connector_profiles", { connector_key: provider.connector_key, label: provider.label, ...body })
}

export interface LinkedProvider {
  readonly connector_key: string
  readonly profileId: string
  readonly accountId: string
}

/**
 * The demo's account of a provider: an active one of the demo's owner linked through the profile
 * to the sandbox at its current address and seed (the seed makes the sandbox's keys; the account's
 * name carries it), else a new link. Any other demo account of that connector is deleted: it
 * holds the keys or address of a sandbox that is gone.
 */
const accountFor = async (api: DemoApi, provider: SandboxProvider, profileId: string, seed: number): Promise<string> => {
  const name = `${provider.connector_key} sandbox (seed ${seed})`
  const mine = rows(await api.call("GET", `/v2/accounts?owner_id=${DEMO_OWNER}&connector_key=${provider.connector_key}&page_size=100`))
  const current = mine.find((account) =>
    account.status === "active" && account.name === name && account.connector_profile_id === profileId &&
    account.settings?.base_url === provider.account_settings["base_url"]
  )
  for (const stale of mine.filter((account) => account !== current)) await api.call("DELETE", `/v2/accounts/${stale.id}`)
  if (current !== undefined) return current.id
  const created = await api.call("POST", "/v2/accounts", {
    connector_key: provider.connector_key,
    connector_profile_id: profileId,
    name,
    owner_id: DEMO_OWNER,
    owner_name: "Switchyard demo",
    credentials: provider.credentials,
    settings: provider.account_settings
  })
  return created.id
}

/**
 * A Lever account, linked as an end user links one: a connect session, "Authorize with Lever"
 * (the connect page's call), Allow on the sandbox's consent page, and the browser's return to
 * this server's callback. Always a new link: the tokens of an earlier run were issued by a
 * sandbox that is gone (it keeps them in memory), so that run's account is deleted.
 */
const accountByConsent = async (api: DemoApi, sandbox: Sandbox, provider: SandboxProvider, profileId: string): Promise<string> => {
  const mine = rows(await api.call("GET", `/v2/accounts?owner_id=${DEMO_OWNER}&connector_key=${provider.connector_key}&page_size=100`))
  for (const stale of mine) await api.call("DELETE", `/v2/accounts/${stale.id}`)
  const session = await api.call("POST", "/connect_sessions", {
    origin_owner_id: DEMO_OWNER,
    origin_owner_name: "Switchyard demo",
    connector_profile_id: profileId
  })
  const authorize = await fetch(`${api.base}/connect_sessions/oauth2/authorize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: session.token, connector_key: provider.connector_key })
  })
  if (!authorize.ok) throw new Error(`starting the ${provider.connector_key} consent answered ${authorize.status}: ${await authorize.text()}`)
  const back = await sandbox.oauth.consent(((await authorize.json()) as { authorization_url: string }).authorization_url, "Allow")
  const callback = await fetch(back)
  if (!callback.ok) throw new Error(`the ${provider.connector_key} callback answered ${callback.status}`)
  const linked = await api.call("GET", `/connect_sessions/${session.id}`)
  if (typeof linked.account_id !== "string") throw new Error(`the ${provider.connector_key} consent linked no account (session ${linked.status})`)
  return linked.account_id
}

/** Profiles and accounts for every sandbox provider, found or created through the public API. */
export const linkSandbox = async (api: DemoApi, sandbox: Sandbox): Promise<ReadonlyArray<LinkedProvider>> => {
  const linked: Array<LinkedProvider> = []
  for (const provider of sandboxProviders(sandbox)) {
    const profile = await profileFor(api, provider)
    linked.push({
      connector_key: provider.connector_key,
      profileId: profile.id,
      accountId: provider.credentials === undefined
        ? await accountByConsent(api, sandbox, provider, profile.id)
        : await accountFor(api, provider, profile.id, sandbox.seed)
    })
  }
  return linked
}
