import { Either } from "effect"

/**
 * An origin allowed to embed the connect page, as CSP `frame-ancestors` and postMessage take
 * it: scheme, host and port only, normalized (`https://App.Example.com:443/` is
 * `https://app.example.com`). Paths, queries, fragments, credentials and wildcards are
 * refused rather than dropped, so that what an operator typed is what the page allows.
 */
export const parseFrameOrigin = (text: string): Either.Either<string, string> => {
  const trimmed = text.trim()
  const refuse = (why: string) => Either.left(`${JSON.stringify(trimmed)} is not an origin: ${why}`)
  if (trimmed.includes("*")) return refuse("wildcards are not allowed, list each origin")
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return refuse("write scheme, host and optional port, e.g. https://app.example.com")
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return refuse("the scheme must be https or http")
  if (url.username !== "" || url.password !== "") return refuse("it may not carry a user name or password")
  if (url.pathname !== "/" || /^[a-z]+:\/\/[^/]+\/./i.test(trimmed)) return refuse("it may not have a path")
  if (url.search !== "" || url.hash !== "" || /[?#]/.test(trimmed)) return refuse("it may not have a query or fragment")
  return Either.right(url.origin)
}
