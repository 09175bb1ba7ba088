/**
 * The server's public HTTP API as the demo calls it: what a user would send with curl, a Full
 * Access key as the Basic auth username. A non-2xx answer fails with the server's message.
 */
export class DemoApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

export interface DemoApi {
  readonly base: string
  readonly key: string
  call<A = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<A>
}

export const demoApi = (base: string, key: string): DemoApi => ({
  base,
  key,
  call: async (method, path, body, headers = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (!response.ok) {
      const message = (() => {
        try {
          return String(JSON.parse(text).message)
        } catch {
          return text.slice(0, 500)
        }
      })()
      throw new DemoApiError(response.status, `${method} ${path} answered ${response.status}: ${message}`)
    }
    return text === "" ? undefined : JSON.parse(text)
  }
})
