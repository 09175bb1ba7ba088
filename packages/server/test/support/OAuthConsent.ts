import type { Sandbox } from "@switchyard/sandbox"

/* Pressing a button on the sandbox provider's consent page over HTTP, as a browser would. */

const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

const forms = (html: string) =>
  [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)].map((match) => ({
    action: unescape(match[1]!),
    fields: Object.fromEntries(
      [...match[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [f[1]!, unescape(f[2]!)])
    ),
    button: /<button[^>]*>([^<]*)<\/button>/.exec(match[2]!)?.[1] ?? ""
  }))

/** Opens the consent page, presses `button`, and answers where the provider redirects (not followed). */
export const consent = async (sandbox: Sandbox, authorizationUrl: string, button: "Allow" | "Deny"): Promise<URL> => {
  const page = await fetch(authorizationUrl, { redirect: "manual" })
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${await page.text()}`)
  const form = forms(await page.text()).find((candidate) => candidate.button === button)
  if (form === undefined) throw new Error(`the consent page has no ${button} button`)
  const answer = await fetch(new URL(form.action, sandbox.oauth.url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form.fields).toString(),
    redirect: "manual"
  })
  const location = answer.headers.get("location")
  if (answer.status !== 302 || location === null) throw new Error(`the consent form answered ${answer.status}`)
  return new URL(location)
}
