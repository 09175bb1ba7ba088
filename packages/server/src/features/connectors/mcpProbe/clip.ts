// Text helpers of the probe: what it shows of server text and URLs, and how it reads JSON and media types.
import { Option } from "effect"

const MAX_TEXT = 200

export const clip = (text: string) => text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}...` : text

/** What error messages show of a URL: never its query (it may carry a key). */
export const displayUrl = (url: URL) => `${url.origin}${url.pathname}`

export const mediaType = (contentType: string | null | undefined) =>
  (contentType ?? "").split(";")[0]!.trim().toLowerCase()

export const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text) as unknown)
  } catch {
    return Option.none()
  }
}
