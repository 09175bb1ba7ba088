import { useEffect, useRef, useState } from "preact/hooks"
import { messageOf } from "./api.js"
import { href, useRoute } from "./router.js"
import { sectionsFor } from "./routes.js"
import { currentSession, type Session, signOut } from "./session.js"
import { SignIn } from "./SignIn.js"
import { ErrorNote, Loading } from "./ui/Feedback.js"
import { scopeLabels } from "./ui/format.js"
import { SessionContext, sessionState } from "./ui/SessionContext.js"

const SESSION_ENDED = "Your session ended: it was signed out, it expired, or its API key was revoked. Sign in again."


export const App = () => {
  const [session, setSession] = useState<Session | null | undefined>(undefined)
  const [failure, setFailure] = useState<unknown>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  // signed in just now (not found at load): the first view takes the focus from the sign-in form
  const [signedInNow, setSignedInNow] = useState(false)
  useEffect(() => {
    currentSession().then((found) => setSession(found ?? null), setFailure)
  }, [])
  if (failure !== undefined) return <main><h1>Switchyard</h1><ErrorNote error={failure} title="Could not reach the server" /></main>
  if (session === undefined) return <main><Loading what="the dashboard" /></main>
  if (session === null) {
    return <SignIn notice={notice} onSignedIn={(signedIn) => {
      setNotice(undefined)
      setSignedInNow(true)
      setSession(signedIn)
    }} />
  }
  const ended = () => {
    setNotice(SESSION_ENDED)
    setSession(null)
  }
  return (
    <SessionContext.Provider value={sessionState(session, ended)}>
      <Shell session={session} focusFirstView={signedInNow} onSignedOut={() => {
        setNotice("You signed out.")
        setSession(null)
      }} />
    </SessionContext.Provider>
  )
}

const Shell = (
  { session, focusFirstView, onSignedOut }: { session: Session; focusFirstView: boolean; onSignedOut: () => void }
) => {
  const route = useRoute()
  const visible = sectionsFor(session.scope)
  const current = visible.find((section) => section.path === route.segments[0]) ?? (route.segments.length === 0 ? visible[0] : undefined)
  const main = useRef<HTMLElement>(null)
  const [signOutError, setSignOutError] = useState<unknown>(undefined)
  // A new view moves focus to its heading, as a page load would (screen readers announce it).
  // The page's own load leaves focus where browsers put it, at the top: the skip link is the first Tab.
  const firstView = useRef(true)
  useEffect(() => {
    if (!firstView.current || focusFirstView) main.current?.querySelector<HTMLElement>("h1")?.focus()
    firstView.current = false
    document.title = `${current?.title ?? "Not found"} · Switchyard`
  }, [route.segments.join("/"), current?.path])
  const Page = current?.page
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(event) => {
        event.preventDefault()
        main.current?.querySelector<HTMLElement>("h1")?.focus()
      }}>Skip to content</a>
      <header class="top">
        <span class="brand">Switchyard</span>
        <span class="who">
          Project <code>{session.project_id}</code> · <span class="scope">{scopeLabels[session.scope]}</span>
        </span>
        <button type="button" onClick={() => signOut().then(onSignedOut, setSignOutError)}>Sign out</button>
      </header>
      {signOutError === undefined ? null : <p class="error-note" role="alert">Could not sign out: {messageOf(signOutError)}</p>}
      <nav aria-label="Sections">
        <ul>
          {visible.map((section) => (
            <li key={section.path}>
              <a href={href(section.path)} aria-current={section === current ? "page" : undefined}>{section.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={main}>
        {visible.length === 0
          ? (
            <>
              <h1 tabIndex={-1}>Nothing to show for this key</h1>
              <p>
                A key with the {scopeLabels[session.scope]} scope runs actions only; the dashboard has no view it may read. Sign out
                and sign in with a Full Access or Read Only key.
              </p>
            </>
          )
          : Page === undefined
          ? <><h1 tabIndex={-1}>Not found</h1><p>There is no such view. <a href={href(visible[0]?.path ?? "")}>Go to the first section</a>.</p></>
          : <Page route={route} />}
      </main>
    </div>
  )
}
