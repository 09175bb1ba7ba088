import { type ProviderRequest, type ProviderResponse, StreamedBody } from "@switchyard/engine"
import type { Ref } from "effect"
import { redactHeaders, redactText, redactValue } from "./Redaction.js"

/* The provider calls of one run, as recorded (unredacted, in memory) and as shown (redacted). */

/** One provider call as a `raw=true` caller sees it: secrets redacted. */
export interface RawCall {
  readonly method: string
  readonly url: string
  readonly body: unknown
  readonly response: { readonly status: number; readonly headers: Record<string, string>; readonly body: unknown } | null
}

/** A call as recorded: unredacted, in memory only for the run; see `redactCall`. */
export interface RecordedCall {
  readonly request: ProviderRequest
  readonly response: ProviderResponse | null
  readonly durationMs: number
}

/** Collects the calls of one run (for `raw`, `provider_errors` and the request log). */
export interface CallRecorder {
  readonly calls: Ref.Ref<ReadonlyArray<RecordedCall>>
}

/** Bytes are never shown, only their size; a streamed body was never held at all. */
const summary = (value: unknown): string | undefined =>
  value instanceof Uint8Array ? `<${value.length} bytes>` : value instanceof StreamedBody ? value.toJSON() : undefined

/**
 * The call as a `raw=true` caller sees it, every secret redacted. Done on demand: most
 * runs never show their calls, and redacting a large body costs more than the call itself.
 */
export const redactCall = ({ request, response }: RecordedCall): RawCall => ({
  method: request.method,
  url: redactText(request.url, request.secrets),
  body: request.body?._tag === "Bytes" ? summary(request.body.value) : redactValue(request.body?.value, request.secrets),
  response: response === null ? null : {
    status: response.status,
    headers: redactHeaders(response.headers, request.secrets),
    body: summary(response.body) ?? redactValue(response.body, request.secrets)
  }
})
