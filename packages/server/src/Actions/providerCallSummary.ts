import type { RecordedCall } from "../Provider/ProviderHttp.js"
import { redactText } from "../Provider/Redaction.js"
import type { ProviderCallSummary } from "./RequestLog.js"

/** A provider call as the request log keeps it without bodies: its URL redacted. */
export const providerCallSummary = (call: RecordedCall): ProviderCallSummary => ({
  method: call.request.method,
  url: redactText(call.request.url, call.request.secrets),
  status: call.response?.status ?? null,
  durationMs: call.durationMs
})
