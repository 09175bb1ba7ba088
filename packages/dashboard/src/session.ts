import type { ApiKeyScope } from "@switchyard/api"

/** The signed-in session as `GET /dashboard/session` answers it. */
export interface Session {
  readonly project_id: string
  readonly api_key_id: string
  readonly scope: ApiKeyScope
  readonly expires_at: string
}

/*
 * Sign-in is the one exchange outside the typed API: the pasted key goes to the server once,
 * which answers an HttpOnly cookie. Everything after it goes through the derived client.
 */

const SESSION_URL = "/dashboard/session"

const failure = async (response: Response) => {
  const body = await response.json().catch(() => undefined) as { message?: unknown } | undefined
  return new Error(typeof body?.message === "string" ? body.message : `The server answered ${response.status}`)
}

/** The current session, or undefined when the browser holds none (or it ended). */
export const currentSession = async (): Promise<Session | undefined> => {
  const response = await fetch(SESSION_URL, { headers: { accept: "application/json" } })
  if (response.status === 401) return undefined
  if (!response.ok) throw await failure(response)
  return await response.json() as Session
}

export const signIn = async (apiKey: string): Promise<Session> => {
  const response = await fetch(SESSION_URL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ api_key: apiKey })
  })
  if (!response.ok) throw await failure(response)
  return await response.json() as Session
}

export const signOut = async (): Promise<void> => {
  const response = await fetch(SESSION_URL, { method: "DELETE" })
  if (!response.ok && response.status !== 401) throw await failure(response)
}

/** What the session may do: Read Only sees no write controls, and only Full Access manages keys. */
export const permissions = (session: Session) => ({
  canWrite: session.scope !== "read_only",
  canManageKeys: session.scope === "full_access"
})
