import { useEffect, useState } from "preact/hooks"

/*
 * Routes live in the URL's fragment (`/dashboard#/accounts/<id>?status=error`): the server
 * serves one page at /dashboard, every view is a link that can be shared or reloaded, and
 * the browser's back button works.
 */

export interface Route {
  /** The path's segments, decoded: `["accounts", "<id>"]`. */
  readonly segments: ReadonlyArray<string>
  readonly query: URLSearchParams
}

export const parseRoute = (hash: string): Route => {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?", 2)
  const segments = path.split("/").filter((segment) => segment.length > 0).map((segment) => {
    try {
      return decodeURIComponent(segment)
    } catch {
      return segment
    }
  })
  return { segments, query: new URLSearchParams(query) }
}

/** A link to a view: `href("accounts", id)`, with query parameters left out when empty. */
export const href = (path: string | ReadonlyArray<string>, query: Record<string, string | undefined> = {}): string => {
  const segments = (typeof path === "string" ? [path] : path).map(encodeURIComponent).join("/")
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "")
  ).toString()
  return `#/${segments}${params.length > 0 ? `?${params}` : ""}`
}

export const navigate = (to: string) => {
  location.hash = to
}

/**
 * Changes the view's URL without a new history entry (a filter typed letter by letter): the
 * back button then leaves the view rather than undoing each keystroke. `useRoute` hears it as
 * it hears any other change of the fragment.
 */
export const replaceRoute = (to: string) => {
  if (to === location.hash) return
  history.replaceState(history.state, "", to)
  dispatchEvent(new HashChangeEvent("hashchange"))
}

export const useRoute = (): Route => {
  const [hash, setHash] = useState(location.hash)
  useEffect(() => {
    const onChange = () => setHash(location.hash)
    addEventListener("hashchange", onChange)
    return () => removeEventListener("hashchange", onChange)
  }, [])
  return parseRoute(hash)
}
