import type * as Http from "node:http"
import { FaultError, parseFaultHeader, retryAfterValue, type ActiveFault, type FaultRegistry } from "../faults.js"
import { HttpError } from "./httpError.js"
import { sendChunks, sendJson } from "./responses.js"
import type { Provider } from "./shared.js"

/** Applying faults to a request: which ones fire, how they are logged, and the answers they replace. */

/** Runs `action`; a bad fault (header or plan) is the client's error, so a 400. */
export const faultErrorsAsBadRequest = <T>(action: () => T): T => {
  try {
    return action()
  } catch (e) {
    if (e instanceof FaultError) throw new HttpError(400, { message: e.message })
    throw e
  }
}

/** The `x-sandbox-fault` header's faults, then the registered plans that fire for this request. */
export const activeFaults = (registry: FaultRegistry, provider: Provider, req: Http.IncomingMessage, method: string, path: string): Array<ActiveFault> =>
  faultErrorsAsBadRequest(() => [...parseFaultHeader(req.headers["x-sandbox-fault"]), ...registry.take(provider, method, path)])

/** How the request log names a fault, e.g. "status:503 (fault_1)" or "latency:250ms (header)". */
export const describeFault = (fault: ActiveFault): string => {
  const detail =
    fault.kind === "status" ? `:${fault.status ?? 500}` :
    fault.kind === "latency" ? `:${fault.latencyMs ?? 1000}ms` :
    fault.kind === "oversized" ? `:${fault.sizeMiB ?? 5}MiB` :
    fault.kind === "rate_limit" ? `:${fault.retryAfter ?? 1}` : ""
  return `${fault.kind}${detail} (${fault.source})`
}

/** Latency faults add up: the request waits for all of them before it is answered. */
export const totalLatencyMs = (faults: ReadonlyArray<ActiveFault>): number =>
  faults.filter((fault) => fault.kind === "latency").reduce((sum, fault) => sum + (fault.latencyMs ?? 1000), 0)

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Streams `{"padding":"xxxx..."}` of about `mib` MiB; valid JSON, just big. */
const sendOversized = (res: Http.ServerResponse, mib: number): void => {
  const total = Math.max(16, Math.floor(mib * 1024 * 1024))
  const head = '{"padding":"'
  const tail = '"}'
  const fill = total - head.length - tail.length
  const chunk = Buffer.alloc(64 * 1024, "x")
  function* body(): Generator<Buffer> {
    yield Buffer.from(head)
    for (let left = fill; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left)
    yield Buffer.from(tail)
  }
  sendChunks(res, 200, body(), { "content-type": "application/json; charset=utf-8", "content-length": String(head.length + fill + tail.length) })
}

/** Answers (or drops) the request the way `fault` says, instead of the provider's own answer. */
export const answerWithFault = (req: Http.IncomingMessage, res: Http.ServerResponse, fault: ActiveFault): void => {
  switch (fault.kind) {
    case "status": {
      const status = fault.status ?? 500
      const retry = retryAfterValue(fault, undefined)
      sendJson(res, status, { message: `Sandbox fault: HTTP ${status}`, sandbox_fault: "status" }, retry !== undefined ? { "retry-after": retry } : {})
      return
    }
    case "rate_limit": {
      const retry = retryAfterValue(fault, 1) as string
      sendJson(res, 429, { message: "Too Many Requests", sandbox_fault: "rate_limit" }, { "retry-after": retry })
      return
    }
    case "timeout":
      // Accept and never answer; the socket is freed when the client goes away or the sandbox closes.
      req.socket.setTimeout(0)
      return
    case "reset":
      req.socket.destroy()
      return
    case "malformed_json": {
      // Written by hand: the body is JSON cut off mid-object, which sendJson cannot produce.
      const text = '{"id": 1, "name": "truncated", "items": [{"id": 2, '
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)) })
      res.end(text)
      return
    }
    case "oversized":
      sendOversized(res, fault.sizeMiB ?? 5)
      return
    case "latency":
      return
  }
}
