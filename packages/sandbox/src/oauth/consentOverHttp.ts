/*
 * Answering the provider's own consent page over HTTP, as a browser without script would:
 * for tests and scripts that need an authorization code without a browser.
 */

const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

/** The consent page's forms: action, hidden fields and the button's label. */
const forms = (html: string) =>
  [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)].map((match) => ({
    action: unescape(match[1] as string),
    fields: Object.fromEntries(
      [...(match[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((field) => [
        field[1] as string,
        unescape(field[2] as string)
      ])
    ),
    button: /<button[^>]*>([^<]*)<\/button>/.exec(match[2] as string)?.[1] ?? ""
  }))

/**
 * Opens `authorizationUrl` (this provider's consent page), presses `button`, and answers the
 * URL the provider redirects the browser to (the client's callback with code or error and
 * state; not followed). Fails when the page or the form does not answer as a consent does.
 */
export const consentOverHttp = async (origin: string, authorizationUrl: string, button: "Allow" | "Deny"): Promise<URL> => {
  const page = await fetch(authorizationUrl, { redirect: "manual" })
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}: ${await page.text()}`)
  const form = forms(await page.text()).find((candidate) => candidate.button === button)
  if (form === undefined) throw new Error(`the consent page has no ${button} button`)
  const answer = await fetch(new URL(form.action, origin), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form.fields).toString(),
    redirect: "manual"
  })
  const location = answer.headers.get("location")
  if (answer.status !== 302 || location === null) throw new Error(`the consent form answered ${answer.status}`)
  return new URL(location)
}
