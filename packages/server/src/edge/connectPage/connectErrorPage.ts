import { allowedFrameOrigins, connectPageHeaders } from "./connectPageHeaders.js"
import { escapeHtml, htmlDocument } from "./htmlDocument.js"

/** Why a connect link cannot be used, as the end user reads it. */
export type ConnectLinkProblem = "missing" | "unknown" | "expired" | "completed" | "failed"

const problems: Record<ConnectLinkProblem, { readonly status: number; readonly title: string; readonly message: string }> = {
  missing: { status: 401, title: "This link is incomplete", message: "The link has no connect token." },
  unknown: { status: 401, title: "This link is not valid", message: "The link is not a connect link this server issued." },
  expired: { status: 410, title: "This link has expired", message: "Connect links are valid for a limited time." },
  completed: { status: 410, title: "This link was already used", message: "An account was already connected with it." },
  failed: {
    status: 410,
    title: "This link can no longer be used",
    message: "Too many attempts to connect an account were refused."
  }
}

/**
 * The page for a link that cannot be used: 401 for a token this server never issued, 410
 * for a session that expired or ended. Its script tells an opener or a parent frame
 * (`switchyard:error`) and offers to close.
 */
export const connectErrorPage = (problem: ConnectLinkProblem, frameOrigins: ReadonlyArray<string>) => {
  const { message, status, title } = problems[problem]
  const advice = "Ask the application that sent you here for a new link."
  return {
    status,
    html: htmlDocument({
      title,
      assets: "connect/assets/",
      data: { mode: "error", message: `${title}. ${message}`, frameOrigins: allowedFrameOrigins(frameOrigins) },
      main: `<h1 tabindex="-1">${escapeHtml(title)}</h1>
<p class="alert" role="alert">${escapeHtml(message)} ${escapeHtml(advice)}</p>
<div class="actions" data-actions></div>`
    }),
    headers: connectPageHeaders(frameOrigins)
  }
}
