import { Clock, Effect, Option } from "effect"
import { hashConnectToken } from "../../features/connectSessions/ConnectSessions.js"
import { ConnectSessionsRepo } from "../../features/connectSessions/ConnectSessionsRepo.js"
import { ProjectsRepo } from "../../features/projects/ProjectsRepo.js"
import type { ConnectLinkProblem } from "./connectErrorPage.js"

/** Longest token the API accepts (AuthenticateConnectSession); a longer one was never issued. */
const MAX_TOKEN_LENGTH = 200

export type ConnectLink =
  | { readonly usable: true; readonly frameOrigins: ReadonlyArray<string> }
  | { readonly usable: false; readonly problem: ConnectLinkProblem; readonly frameOrigins: ReadonlyArray<string> }

/**
 * What `GET /connect` needs to know about a token before answering, read-only: whether the
 * session can still link, and which origins its project lets frame the page (an unknown
 * token has none).
 */
export const lookUpConnectLink = (token: string | null) =>
  Effect.gen(function*() {
    if (token === null || token.length === 0) return { usable: false, problem: "missing", frameOrigins: [] } as ConnectLink
    const found = token.length > MAX_TOKEN_LENGTH
      ? Option.none()
      : yield* (yield* ConnectSessionsRepo).findByTokenHash(hashConnectToken(token))
    if (Option.isNone(found)) return { usable: false, problem: "unknown", frameOrigins: [] } as ConnectLink
    const session = found.value
    const project = yield* (yield* ProjectsRepo).findProject(session.project_id)
    const frameOrigins = Option.match(project, { onNone: () => [], onSome: (p) => p.connect_frame_origins })
    const now = yield* Clock.currentTimeMillis
    if (session.status !== "pending") return { usable: false, problem: session.status, frameOrigins } as ConnectLink
    if (session.expires_at.getTime() <= now) return { usable: false, problem: "expired", frameOrigins } as ConnectLink
    return { usable: true, frameOrigins } as ConnectLink
  })
