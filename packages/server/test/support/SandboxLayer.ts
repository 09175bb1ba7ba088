import type { CreateAccount } from "@switchyard/api"
import { type Sandbox, startSandbox } from "@switchyard/sandbox"
import { Context, Effect, Layer } from "effect"
import { accountBody } from "./Fixtures.js"
import { TestServer } from "./TestServer.js"

export class SandboxProviders extends Context.Tag("Test/SandboxProviders")<SandboxProviders, Sandbox>() {}

/** The simulated providers as real servers on loopback for the layer's lifetime. */
export const SandboxLive = (seed = 7) =>
  Layer.scoped(
    SandboxProviders,
    Effect.acquireRelease(
      Effect.promise(() => startSandbox({ seed })),
      (sandbox) => Effect.promise(() => sandbox.close())
    )
  )

/**
 * A test server that may call the sandbox on loopback, with the sandbox: three attempts within
 * a 4 s deadline, each bounded by `attemptTimeoutMs` (short for a hanging provider's tests).
 */
export const SandboxServer = (attemptTimeoutMs: number) =>
  Layer.merge(
    TestServer({
      SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
      SWITCHYARD_PROVIDER_TIMEOUT_MS: String(attemptTimeoutMs),
      SWITCHYARD_PROVIDER_DEADLINE_MS: "4000",
      SWITCHYARD_PROVIDER_MAX_ATTEMPTS: "3"
    }),
    SandboxLive()
  )

/**
 * A Greenhouse account on the sandbox's ATS that may also write (the acting user, no secret,
 * is a setting: as a credential it would be redacted out of provider bodies), e.g. with a
 * connector profile or version in `overrides`.
 */
export const sandboxGreenhouseAccount = (sandbox: Sandbox, overrides: Partial<CreateAccount> = {}) =>
  accountBody({
    connector_key: "greenhouse",
    credentials: { apiKey: sandbox.ats.apiKey },
    settings: { base_url: sandbox.ats.baseUrl, onBehalfOf: String(sandbox.ats.onBehalfOf) },
    ...overrides
  })

/** A Lever connector profile holding the sandbox's OAuth app, its accounts pointed at the sandbox. */
export const sandboxLeverProfile = (sandbox: Sandbox) => ({
  connector_key: "lever",
  label: "Lever",
  setup: { clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret },
  account_settings: { base_url: sandbox.oauth.baseUrl, auth_base_url: sandbox.oauth.url }
})

export const sandboxBambooAccount = (sandbox: Sandbox, overrides: Partial<CreateAccount> = {}) =>
  accountBody({
    connector_key: "bamboohr",
    credentials: { apiKey: sandbox.hris.apiKey, subdomain: sandbox.hris.companyDomain },
    settings: { base_url: sandbox.hris.baseUrl },
    ...overrides
  })

export const sandboxTalentLmsAccount = (sandbox: Sandbox, overrides: Partial<CreateAccount> = {}) =>
  accountBody({
    connector_key: "talentlms",
    credentials: { apiKey: sandbox.lms.apiKey, domain: "sandbox" },
    settings: { base_url: sandbox.lms.baseUrl },
    ...overrides
  })

/** A provider record as the sandbox's own API answers it. */
export type Json = Record<string, any>

/** The sandbox read directly, as its own API answers (Basic auth with the provider key). */
export const direct = (sandbox: Sandbox, provider: "ats" | "hris" | "lms", path: string) =>
  Effect.promise(async () => {
    const key = sandbox[provider].apiKey
    const response = await fetch(`${sandbox[provider].baseUrl}${path}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:${provider === "hris" ? "x" : ""}`).toString("base64")}`,
        accept: "application/json"
      }
    })
    if (!response.ok) throw new Error(`sandbox ${provider} ${path} answered ${response.status}`)
    return (await response.json()) as any
  })

/** The first of the early applications that has a note, with that note. */
export const applicationWithNote = (sandbox: Sandbox) =>
  Effect.gen(function*() {
    for (const application of (yield* direct(sandbox, "ats", "/applications?per_page=20")) as Array<Json>) {
      const notes = (yield* direct(sandbox, "ats", `/applications/${application.id}/notes`)) as Array<Json>
      if (notes.length > 0) return { applicationId: String(application.id), note: notes[0] as Json }
    }
    throw new Error("no application with notes in the sandbox")
  })
