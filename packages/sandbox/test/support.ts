/** Test helpers: Basic auth headers and Link-header pagination. */

export const basic = (user: string, password = ""): string => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`

/** Parses an RFC 5988 Link header into rel → URL. */
export const parseLink = (header: string | null): Record<string, string> => {
  const out: Record<string, string> = {}
  if (header === null) return out
  for (const part of header.split(",")) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim())
    if (m !== null) out[m[2] as string] = m[1] as string
  }
  return out
}

/** Follows rel="next" from `url` and returns every page's items plus the number of pages. */
export const fetchAllPages = async <T>(url: string, headers: Record<string, string>): Promise<{ items: Array<T>; pages: number; lastLinks: Array<string> }> => {
  const items: Array<T> = []
  const lastLinks: Array<string> = []
  let next: string | undefined = url
  let pages = 0
  while (next !== undefined) {
    const res: Response = await fetch(next, { headers })
    if (res.status !== 200) throw new Error(`GET ${next} → ${res.status}`)
    const links = parseLink(res.headers.get("link"))
    if (links["last"] !== undefined) lastLinks.push(links["last"])
    items.push(...((await res.json()) as Array<T>))
    pages++
    next = links["next"]
    if (pages > 1000) throw new Error("too many pages")
  }
  return { items, pages, lastLinks }
}

export const json = async <T = any>(res: Response): Promise<T> => (await res.json()) as T
