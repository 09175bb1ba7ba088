import { Context, Effect, Layer } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** An OTLP/JSON attribute value (the subset exporters send). */
export interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: number | string
  readonly doubleValue?: number
  readonly boolValue?: boolean
  readonly arrayValue?: { readonly values: ReadonlyArray<OtlpValue> }
}
export interface OtlpAttribute {
  readonly key: string
  readonly value: OtlpValue
}
export interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<OtlpAttribute>
  readonly events?: ReadonlyArray<{ readonly name: string; readonly attributes?: ReadonlyArray<OtlpAttribute> }>
  readonly status?: { readonly code?: number; readonly message?: string }
}
export interface OtlpExport {
  readonly headers: Http.IncomingHttpHeaders
  /** The parsed body as sent: `{resourceSpans: [{resource, scopeSpans: [{scope, spans}]}]}`. */
  readonly body: {
    readonly resourceSpans: ReadonlyArray<{
      readonly resource?: { readonly attributes?: ReadonlyArray<OtlpAttribute> }
      readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<OtlpSpan> }>
    }>
  }
}

export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string
  /** Every export received so far, in arrival order. */
  readonly exports: Array<OtlpExport>
  /** Every span received so far. */
  readonly spans: () => Array<OtlpSpan>
}

export class OtlpReceiverService extends Context.Tag("Test/OtlpReceiver")<OtlpReceiverService, OtlpReceiver>() {}

/** An attribute's value as plain JSON (a string, number, boolean or array). */
export const attributeValue = (value: OtlpValue): unknown =>
  value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ??
    value.boolValue ?? value.arrayValue?.values.map(attributeValue)

export const attributesOf = (span: OtlpSpan): Record<string, unknown> =>
  Object.fromEntries(span.attributes.map(({ key, value }) => [key, attributeValue(value)]))

/**
 * A collector's OTLP/HTTP traces endpoint on a free loopback port: `POST /v1/traces` with a
 * JSON body is kept and answered 200 `{}` (the spec's full success); anything else 404.
 */
export const OtlpReceiverLive = Layer.scoped(
  OtlpReceiverService,
  Effect.acquireRelease(
    Effect.async<{ readonly server: Http.Server; readonly receiver: OtlpReceiver }>((resume) => {
      const exports: Array<OtlpExport> = []
      const server = Http.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          if (request.method !== "POST" || request.url !== "/v1/traces") {
            response.writeHead(404).end()
            return
          }
          exports.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
          response.writeHead(200, { "content-type": "application/json" }).end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          receiver: {
            url: `http://127.0.0.1:${port}`,
            exports,
            spans: () =>
              exports.flatMap(({ body }) => body.resourceSpans.flatMap(({ scopeSpans }) => scopeSpans.flatMap(({ spans }) => spans)))
          }
        }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ receiver }) => receiver))
)
