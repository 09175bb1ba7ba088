import { useEffect, useRef, useState } from "preact/hooks"
import { type Session, signIn } from "./session.js"
import { ErrorNote } from "./ui/Feedback.js"

/**
 * The one place a key is typed: it is sent once and forgotten (the field is cleared); the
 * server answers a session cookie the script cannot read.
 */
export const SignIn = ({ notice, onSignedIn }: { notice?: string | undefined; onSignedIn: (session: Session) => void }) => {
  const [key, setKey] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  const submit = async (event: Event) => {
    event.preventDefault()
    if (key.trim().length === 0) {
      setError(new Error("Paste an API key first."))
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      const session = await signIn(key.trim())
      setKey("")
      onSignedIn(session)
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <h1 ref={heading} tabIndex={-1}>Sign in to Switchyard</h1>
      {notice === undefined ? null : <p class="notice" role="status">{notice}</p>}
      <form onSubmit={submit} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder="swy_…"
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
          aria-describedby="api-key-help"
        />
        <p id="api-key-help" class="muted">
          The key the server printed at its first start, or one from <code>switchyard keys create</code>. It is sent once;
          the browser keeps only a session cookie that ends when you sign out, after 8 hours, or when the key is revoked. A
          Read Only key opens a dashboard that cannot change anything.
        </p>
        {error === undefined ? null : <ErrorNote error={error} title="Could not sign in" />}
        <button type="submit" class="primary" disabled={busy}>{busy ? "Signing in…" : "Sign in"}</button>
      </form>
    </main>
  )
}
