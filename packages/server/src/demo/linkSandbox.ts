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
  /** The credentials of the connector's authentication config_fields (GET /v2/connectors), for a link by API. */
  readonly credentials?: Record<string, string>
}

/**
 * One profile per sandbox provider, each pointing its connector at the sandbox (base_url, so
 * that calls and the connect page's credential check go there, not to the real provider). Lever
 * authenticates with OAuth2: its profile holds the sandbox's OAuth app and its accounts link on
 * the connect page, through the sandbox's consent page.
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
  /** The account linked by API; none for OAuth2 providers (they link on the connect page). */
  readonly accountId?: string
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

/** Profiles and accounts for every sandbox provider, found or created through the public API. */
export const linkSandbox = async (api: DemoApi, sandbox: Sandbox): Promise<ReadonlyArray<LinkedProvider>> => {
  const linked: Array<LinkedProvider> = []
  for (const provider of sandboxProviders(sandbox)) {
    const profile = await profileFor(api, provider)
    linked.push({
      connector_key: provider.connector_key,
      profileId: profile.id,
      ...(provider.credentials === undefined ? {} : { accountId: await accountFor(api, provider, profile.id, sandbox.seed) })
    })
  }
  return linked
}
