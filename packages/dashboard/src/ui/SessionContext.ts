import { createContext } from "preact"
import { useContext } from "preact/hooks"
import { permissions, type Session } from "../session.js"

export interface SessionState {
  readonly session: Session
  readonly canWrite: boolean
  readonly canManageKeys: boolean
  /** Called when a request learns that the session ended (401): back to sign-in, saying why. */
  readonly ended: () => void
}

export const SessionContext = createContext<SessionState | undefined>(undefined)

export const sessionState = (session: Session, ended: () => void): SessionState => ({
  session,
  ...permissions(session),
  ended
})

export const useSession = (): SessionState => {
  const state = useContext(SessionContext)
  if (state === undefined) throw new Error("useSession outside a signed-in dashboard")
  return state
}
