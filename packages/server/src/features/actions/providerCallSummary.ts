import type { RecordedCall } from "../../platform/outboundHttp/ProviderHttp.js"
import { redactText } from "../../platform/outboundHttp/Redaction.js"
import type { ProviderCallSummary } from "../requestLogs/RequestLog.js"

/** A provider call as the request log keeps it without bodies: its URL redacted. */
export const providerCallSummary = (call: RecordedCall): ProviderCallSummary => ({
  method: call.request.method,
  url: redactText(call.request.url, call.request.secrets),
  status: call.response?.status ?? null,
  durationMs: call.durationMs
})
