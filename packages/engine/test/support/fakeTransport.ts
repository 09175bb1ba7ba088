import { Effect, Either, Layer } from "effect"
import {
  parseConnector,
  type ParsedConnector,
  type ProviderRequest,
  type ProviderResponse,
  ProviderTransport,
  type ProviderTransportError
} from "../../src/index.js"

export type FakeAnswer =
  | ProviderResponse
  | Effect.Effect<ProviderResponse, ProviderTransportError>

export type FakeHandler = (request: ProviderRequest, url: URL, index: number) => FakeAnswer

/** JSON answer with the given status (200 by default). */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): ProviderResponse => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body
})

/**
 * An in-memory provider: records every request and answers through `handler`. The
 * server tests the real HTTP transport; the engine only needs the contract.
 */
export const fakeTransport = (handler: FakeHandler) => {
  const requests: Array<ProviderRequest> = []
  const layer = Layer.succeed(ProviderTransport, {
    send: (request) =>
      Effect.suspend(() => {
        const index = requests.length
        requests.push(request)
        const answer = handler(request, new URL(request.url), index)
        return Effect.isEffect(answer) ? answer : Effect.succeed(answer)
      })
  })
  return { requests, layer }
}

/** A connector from YAML lines; fails the test with the parser's message otherwise. */
export const connector = (text: string): ParsedConnector => {
  const result = parseConnector(text)
  if (Either.isLeft(result)) throw new Error(`connector does not parse: ${result.left.message}`)
  return result.right
}

/** A connector document with the given `authentication` and `actions` YAML (already indented). */
export const connectorYaml = (options: {
  readonly baseUrl?: string
  readonly authentication?: string
  readonly actions: string
}): string =>
  [
    "StackOne: 1.0.0",
    "info:",
    "  title: Test",
    "  key: test",
    "  version: 1.0.0",
    `baseUrl: ${options.baseUrl ?? "https://api.example.com/v1"}`,
    ...(options.authentication === undefined ? [] : ["authentication:", options.authentication]),
    "actions:",
    options.actions
  ].join("\n") + "\n"

/** Strips the common leading indentation of a template literal (YAML in tests). */
export const dedent = (strings: TemplateStringsArray, ...values: Array<unknown>): string => {
  const text = strings.reduce((out, part, index) => out + part + (index < values.length ? String(values[index]) : ""), "")
  const lines = text.replace(/^\n/, "").split("\n")
  const indent = Math.min(...lines.filter((line) => line.trim() !== "").map((line) => line.length - line.trimStart().length))
  return lines.map((line) => line.slice(indent)).join("\n")
}
