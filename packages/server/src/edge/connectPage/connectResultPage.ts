import { allowedFrameOrigins, connectPageHeaders } from "./connectPageHeaders.js"
import { escapeHtml, htmlDocument } from "./htmlDocument.js"

export type ConnectResult =
  | {
    readonly status: "connected"
    readonly accountId: string
    readonly connectorKey: string
    /** The session's redirect_url with account_id added, or null. */
    readonly redirectUrl: string | null
    readonly frameOrigins: ReadonlyArray<string>
  }
  | {
    readonly status: "error"
    /** What the end user reads (and the embedding page receives in `switchyard:error`). */
    readonly message: string
    readonly connectorKey: string | null
    readonly frameOrigins: ReadonlyArray<string>
  }

/**
 * The answer of `GET /connect/oauth2/{connector_key}/callback` (served at that path: its
 * asset links are relative to it). The result travels in a JSON data block; the connect
 * page's script renders it: in the popup a framed page opened, it hands the result to that
 * page (same origin) and closes; as a whole window, it shows the success or error screen,
 * posts `switchyard:connected` or `switchyard:error` to an opener, then follows redirectUrl.
 */
export const connectResultPage = (result: ConnectResult): { html: string; headers: Record<string, string> } => {
  const frameOrigins = allowedFrameOrigins(result.frameOrigins)
  const data = result.status === "connected"
    ? {
      mode: "result",
      frameOrigins,
      result: {
        status: "connected",
        account_id: result.accountId,
        connector_key: result.connectorKey,
        redirect_url: result.redirectUrl
      }
    }
    : {
      mode: "result",
      frameOrigins,
      result: { status: "error", message: result.message, connector_key: result.connectorKey }
    }
  const title = result.status === "connected" ? "Account connected" : "The account was not connected"
  return {
    html: htmlDocument({
      title,
      assets: "../../assets/",
      data,
      main: `<h1 tabindex="-1">${title}</h1>
${
        result.status === "connected"
          ? `<p class="progress" role="status">Finishing…</p>`
          : `<p class="alert" role="alert">${escapeHtml(result.message)}</p>`
      }`
    }),
    headers: connectPageHeaders(result.frameOrigins)
  }
}
