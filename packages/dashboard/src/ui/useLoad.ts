import { useCallback, useEffect, useRef, useState } from "preact/hooks"
import { isSignedOut } from "../api.js"
import { useSession } from "./SessionContext.js"

export type Load<A> =
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly error: unknown }
  | { readonly state: "loaded"; readonly data: A }

/**
 * Loads what a view shows, again whenever `deps` change or `reload` is called; an answer
 * that arrives after a newer request started is dropped. A 401 ends the session (the key
 * was revoked, the session expired or was signed out elsewhere).
 */
export const useLoad = <A>(load: () => Promise<A>, deps: ReadonlyArray<unknown>) => {
  const { ended } = useSession()
  const [result, setResult] = useState<Load<A>>({ state: "loading" })
  const latest = useRef(0)
  const run = useCallback(() => {
    const request = ++latest.current
    setResult((previous) => previous.state === "loaded" ? previous : { state: "loading" })
    load().then(
      (data) => request === latest.current && setResult({ state: "loaded", data }),
      (error: unknown) => {
        if (request !== latest.current) return
        if (isSignedOut(error)) ended()
        else setResult({ state: "failed", error })
      }
    )
  }, deps)
  useEffect(run, [run])
  return { ...result, reload: run } as Load<A> & { readonly reload: () => void }
}

/**
 * Runs a change (create, revoke, retry…) and keeps its failure to show beside the control.
 * `busy` disables the control while the request is under way, so a double click sends once.
 */
export const useAction = () => {
  const { ended } = useSession()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const run = async <A>(action: () => Promise<A>): Promise<A | undefined> => {
    setBusy(true)
    setError(undefined)
    try {
      return await action()
    } catch (failure) {
      if (isSignedOut(failure)) ended()
      else setError(failure)
      return undefined
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, run, clear: () => setError(undefined) }
}
