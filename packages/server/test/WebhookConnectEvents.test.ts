import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Webhook } from "standardwebhooks"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { eventually, type ReceivedWebhook, WebhookReceiver } from "./support/WebhookReceiver.js"
import { json, send } from "./support/Wire.js"

/*
 * The connect session events: a session that links an account reports the account and the
 * session; one that fails for good reports that, once (not each refused attempt). The poll is at
 * its 60 s maximum and `eventually` gives up after 30 s: these events are written by this
 * process, so its worker is woken when they commit (WebhookWakeup.test.ts).
 */

const server = Layer.merge(
  TestServer({
    SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
    SWITCHYARD_WEBHOOK_RETRY_SECONDS: "0,0,0",
    SWITCHYARD_WEBHOOK_POLL_MS: "60000"
  }),
  SandboxLive()
)

const owner = { origin_owner_id: "customer-1", origin_owner_name: "Acme Inc" }

const post = (path: string, body: unknown) => send(HttpClientRequest.post(path).pipe(json(body)))

interface Event {
  readonly id: string
  readonly type: string
  readonly sequence: number
  readonly data: Record<string, unknown>
}

/** A project with a Greenhouse profile on the sandbox, and an endpoint for the connect events. */
const setup = (path: string) =>
  Effect.gen(function*() {
    const sandbox = yield* SandboxProviders
    const receiver = yield* WebhookReceiver
    const project = yield* freshProject
    yield* project.client.connector_profiles.create_connector_profile({
      urlParams: {},
      payload: {
        connector_key: "greenhouse",
        label: "Recruiting",
        account_settings: { base_url: sandbox.ats.baseUrl, onBehalfOf: String(sandbox.ats.onBehalfOf) }
      }
    })
    const endpoint = yield* project.client.webhooks.create_webhook({
      payload: { url: receiver.url(path), events: ["account.created", "connect_session.completed", "connect_session.failed"] }
    })
    const session = yield* project.client.connect_sessions.create_connect_session({ payload: owner })
    const events = (count: number) =>
      Effect.map(
        eventually(
          Effect.sync(() => receiver.received(path).length >= count ? receiver.received(path) : undefined),
          `${count} events`
        ),
        (requests: ReadonlyArray<ReceivedWebhook>) =>
          requests.map((request) => new Webhook(endpoint.secret).verify(request.body, request.headers) as Event)
      )
    return { sandbox, receiver, project, endpoint, session, events }
  })

layer(server, { excludeTestServices: true })("connect session webhooks", (it) => {
  it.scoped("a completed session sends account.created then connect_session.completed, signed", () =>
    Effect.gen(function*() {
      const { events, sandbox, session } = yield* setup("/connect/completed")
      const linked = yield* post("/connect_sessions/link", {
        token: session.token,
        connector_key: "greenhouse",
        credentials: { apiKey: sandbox.ats.apiKey }
      })
      expect(linked.status).toBe(200)
      const accountId = (linked.json as { account_id: string }).account_id
      const [created, completed] = yield* events(2)
      expect(created).toMatchObject({ type: "account.created", data: { id: accountId, status: "active", linked_via: "connect_session" } })
      expect(completed).toMatchObject({
        type: "connect_session.completed",
        data: { id: session.id, status: "completed", account_id: accountId, failure_reason: null, origin_owner_id: "customer-1" }
      })
      expect(completed!.data).not.toHaveProperty("token")
      expect(completed!.data).not.toHaveProperty("connectors")
      expect(created!.sequence).toBeLessThan(completed!.sequence)
      expect(JSON.stringify([created, completed])).not.toContain(sandbox.ats.apiKey)
    }))

  it.scoped("a session that fails for good sends connect_session.failed once, with the reason", () =>
    Effect.gen(function*() {
      const { endpoint, events, project, receiver, session } = yield* setup("/connect/failed")
      for (let attempt = 1; attempt <= 5; attempt++) {
        const refused = yield* post("/connect_sessions/link", {
          token: session.token,
          connector_key: "greenhouse",
          credentials: { apiKey: `wrong-${attempt}` }
        })
        expect(refused.status).toBe(400)
      }
      const [failed] = yield* events(1)
      expect(failed).toMatchObject({ type: "connect_session.failed", data: { id: session.id, status: "failed" } })
      expect(failed!.data.failure_reason).toMatch(/refused the credentials/)
      expect(JSON.stringify(failed)).not.toContain("wrong-5")
      // one event for the five attempts: the delivery list holds exactly one, delivered
      const deliveries = yield* eventually(
        Effect.map(
          project.client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data.every(({ status }) => status === "succeeded") ? data : undefined
        ),
        "the delivery to succeed"
      )
      expect(deliveries.map(({ event_type }) => event_type)).toEqual(["connect_session.failed"])
      expect(receiver.received("/connect/failed")).toHaveLength(1)
    }))
})
