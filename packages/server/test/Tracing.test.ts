import { expect, layer } from "@effect/vitest"
import { Effect, type Exit, Layer, Option, type Context, Tracer } from "effect"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/** A span kept in memory with its attributes, telling `onEnd` when it ends. */
class RecordedSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly spanId = Math.random().toString(16).slice(2)
  readonly traceId: string
  readonly sampled = true
  readonly attributes = new Map<string, unknown>()
  readonly links: Array<Tracer.SpanLink>
  status: Tracer.SpanStatus

  constructor(
    readonly name: string,
    readonly parent: Option.Option<Tracer.AnySpan>,
    readonly context: Context.Context<never>,
    links: ReadonlyArray<Tracer.SpanLink>,
    startTime: bigint,
    readonly kind: Tracer.SpanKind,
    private readonly onEnd: (span: RecordedSpan) => void
  ) {
    this.traceId = Option.match(parent, { onNone: () => this.spanId, onSome: (span) => span.traceId })
    this.links = [...links]
    this.status = { _tag: "Started", startTime }
  }

  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>) {
    if (this.status._tag === "Ended") return
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
    this.onEnd(this)
  }

  attribute(key: string, value: unknown) {
    this.attributes.set(key, value)
  }

  event() {}

  addLinks(links: ReadonlyArray<Tracer.SpanLink>) {
    this.links.push(...links)
  }
}

const UNIFIED_PATH = "/unified/ats/applications"
const spans: Array<RecordedSpan> = []
let unifiedRequestEnded: (span: RecordedSpan) => void = () => {}
const unifiedRequest = new Promise<RecordedSpan>((resolve) => unifiedRequestEnded = resolve)

const recordingTracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const span = new RecordedSpan(name, parent, context, links, startTime, kind, (ended) => {
      if (ended.name.startsWith("http.server") && ended.attributes.get("url.path") === UNIFIED_PATH) {
        unifiedRequestEnded(ended)
      }
    })
    spans.push(span)
    return span
  },
  context: (f) => f()
})

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(11)).pipe(
  Layer.provide(Layer.setTracer(recordingTracer))
)

/** The spans from `span` up to the root, nearest first. */
const ancestors = (span: Tracer.AnySpan): Array<Tracer.AnySpan> => {
  const chain: Array<Tracer.AnySpan> = []
  for (let current = span; current._tag === "Span" && Option.isSome(current.parent);) {
    current = current.parent.value
    chain.push(current)
  }
  return chain
}

const basic = (user: string) => Buffer.from(`${user}:`).toString("base64")

layer(Server, { excludeTestServices: true })("tracing", (it) => {
  it.effect("a unified call has request, account, action and provider spans, nested, with no secret in them", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      yield* project.client.unified_ats.ats_list_applications({
        headers: { "x-account-id": account.id },
        urlParams: { page_size: 3 }
      })
      // the request's span ends after its answer is sent: wait for it, not for a time
      const request = yield* Effect.promise(() => unifiedRequest)

      expect(request.attributes.get("switchyard.project.id")).toBe(project.projectId)
      const inRequest = spans.filter((span) => ancestors(span).includes(request))
      const named = (name: string) => {
        const found = inRequest.filter((span) => span.name === name)
        expect(found, name).not.toHaveLength(0)
        return found[0]!
      }
      const unified = named("UnifiedRunner.run")
      const action = named("ActionRunner.execute")
      const resolve = named("AccountContexts.resolve")
      const call = named("ProviderHttp.call")
      const attempt = named("ProviderHttp.attempt")
      expect(ancestors(action)).toContain(unified)
      expect(resolve.parent).toEqual(Option.some(action))
      expect(ancestors(call)).toContain(action)
      expect(attempt.parent).toEqual(Option.some(call))
      // the platform's client spans (full URL, most headers) are off for provider calls
      expect(inRequest.filter((span) => span.name.startsWith("http.client"))).toEqual([])

      expect(Object.fromEntries(action.attributes)).toMatchObject({
        "switchyard.call.kind": "unified",
        "switchyard.account.id": account.id,
        "switchyard.action.id": "ats_list_applications",
        "switchyard.connector.key": "greenhouse"
      })
      expect(Object.fromEntries(resolve.attributes)).toMatchObject({
        "switchyard.account.id": account.id,
        "switchyard.connector.key": "greenhouse"
      })
      expect(Object.fromEntries(call.attributes)).toMatchObject({
        "http.request.method": "GET",
        "server.address": "127.0.0.1",
        "switchyard.provider": "greenhouse",
        "http.response.status_code": 200,
        "switchyard.provider.attempts": 1
      })
      expect(Object.fromEntries(attempt.attributes)).toMatchObject({
        "switchyard.provider.attempt": 1,
        "http.response.status_code": 200
      })

      // no span of the whole exchange (account creation included) carries a credential or key
      const secrets = [sandbox.ats.apiKey, basic(sandbox.ats.apiKey), project.key, basic(project.key)]
      for (const span of spans) {
        for (const [key, value] of span.attributes) {
          const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value)
          for (const secret of secrets) expect(text, `${span.name} ${key}`).not.toContain(secret)
        }
      }
    }))
})
