import type { Sandbox } from "@switchyard/sandbox"

/* Driving the sandbox provider's consent page the way a browser would (fetch, no script). */

const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

/** The consent page's forms: action, hidden fields and the button's label. */
const forms = (html: string): Array<{ action: string; fields: Record<string, string>; button: string }> =>
  [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)].map((m) => ({
    action: unescape(m[1]!),
    fields: Object.fromEntries(
      [...m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [f[1]!, unescape(f[2]!)])
    ),
    button: /<button[^>]*>([^<]*)<\/button>/.exec(m[2]!)?.[1] ?? ""
  }))

/**
 * Opens `authorizationUrl` (the consent page), presses `button` and answers the URL the
 * provider redirects the browser to (the callback, not followed).
 */
export const consent = async (sb: Sandbox, authorizationUrl: string, button: "Allow" | "Deny"): Promise<URL> => {
  const page = await fetch(authorizationUrl, { redirect: "manual" })
  if (page.status !== 200) throw new Error(`consent page answered ${page.status} ${page.headers.get("location") ?? ""}`)
  const form = forms(await page.text()).find((f) => f.button === button)
  if (form === undefined) throw new Error(`the consent page has no ${button} form`)
  const answer = await fetch(new URL(form.action, sb.oauth.url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form.fields).toString(),
    redirect: "manual"
  })
  const location = answer.headers.get("location")
  if (answer.status !== 302 || location === null) throw new Error(`the consent form answered ${answer.status}`)
  return new URL(location)
}
