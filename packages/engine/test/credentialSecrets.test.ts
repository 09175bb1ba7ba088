import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { credentialSecrets, plainCredentialKeys, REDACTED, runAction } from "../src/index.js"
import { connector, connectorYaml, fakeTransport, json } from "./support/fakeTransport.js"

const getAction = [
  "  - actionId: get_thing",
  "    actionType: get",
  "    label: Get thing",
  "    inputs:",
  "      - name: id",
  "        type: string",
  "        in: path",
  "    steps:",
  "      - stepId: fetch",
  "        stepFunction:",
  "          functionName: request",
  "          parameters:",
  "            url: /things/${inputs.id}",
  "            method: get"
].join("\n")

/** A connector on `https://${subdomain}.example.com` with basic auth and the given config fields. */
const withFields = (fields: string, extraMethod = "") =>
  connector(connectorYaml({
    baseUrl: "https://${credentials.subdomain}.example.com/api",
    authentication: [
      "  - apiKey:",
      "      type: custom",
      "      authorization:",
      "        type: basic",
      "        username: $.credentials.apiKey",
      "        password: x",
      "      configFields:",
      fields,
      extraMethod
    ].filter((line) => line !== "").join("\n"),
    actions: getAction
  }))

const subdomainPlain = [
  "        - key: subdomain",
  "          type: text",
  "          secret: false",
  "        - key: apiKey",
  "          type: password",
  "          secret: true"
].join("\n")

describe("plainCredentialKeys", () => {
  it("keeps only keys declared secret: false", () => {
    const parsed = withFields([
      subdomainPlain,
      "        - key: region",
      "          type: text"
    ].join("\n"))
    expect([...plainCredentialKeys(parsed.definition)]).toEqual(["subdomain"])
  })

  it("a key declared secret: false in one method and not so in another stays secret", () => {
    const parsed = withFields(
      subdomainPlain,
      [
        "  - oauth:",
        "      type: custom",
        "      setupFields:",
        "        - key: subdomain",
        "          type: text",
        "        - key: tenant",
        "          secret: false"
      ].join("\n")
    )
    expect([...plainCredentialKeys(parsed.definition)]).toEqual(["tenant"])
  })

  it("without authentication nothing is plain", () => {
    expect(plainCredentialKeys(connector(connectorYaml({ actions: getAction })).definition).size).toBe(0)
  })
})

describe("credentialSecrets", () => {
  const parsed = withFields(subdomainPlain)

  it("redacts every credential but the string value of a field declared secret: false", () => {
    const secrets = credentialSecrets(parsed, {
      subdomain: "acme",
      apiKey: "key-123456",
      accessToken: "tok-abcdef",
      refresh: { token: "nested-secret" },
      list: ["listed-secret"],
      short: "abc"
    })
    expect([...secrets].sort()).toEqual(["key-123456", "listed-secret", "nested-secret", "tok-abcdef"])
  })

  it("nested values under a plain key stay secret", () => {
    expect([...credentialSecrets(parsed, { subdomain: { value: "hidden-one" } })]).toEqual(["hidden-one"])
  })

  it("a plain value equal to a secret one does not un-redact it", () => {
    expect([...credentialSecrets(parsed, { subdomain: "same-value", apiKey: "same-value" })]).toEqual(["same-value"])
  })

  it("undeclared fields, and fields of a connector without declarations, are secret", () => {
    const bare = connector(connectorYaml({ actions: getAction }))
    expect([...credentialSecrets(bare, { subdomain: "acme", apiKey: "key-123456" })].sort()).toEqual(["acme", "key-123456"])
  })
})

describe("runAction redacts only secret credentials", () => {
  // The API key contains the subdomain: showing the subdomain must not uncover the key.
  const credentials = { subdomain: "acme", apiKey: "acme/key 123456" }
  const basic = Buffer.from(`${credentials.apiKey}:x`).toString("base64")
  const forms = [
    credentials.apiKey,
    encodeURIComponent(credentials.apiKey),
    new URLSearchParams({ s: credentials.apiKey }).toString().slice(2),
    basic
  ]

  it.effect("an error shows the plain subdomain in its URL and no form of the API key", () =>
    Effect.gen(function*() {
      const transport = fakeTransport((request) =>
        json({ echo: credentials.apiKey, encoded: encodeURIComponent(credentials.apiKey), auth: request.headers.authorization }, 500)
      )
      const error = yield* Effect.flip(
        runAction(withFields(subdomainPlain), "get_thing", { id: credentials.apiKey }, { credentials }).pipe(
          Effect.provide(transport.layer)
        )
      )
      expect(error._tag).toBe("ProviderHttpError")
      if (error._tag !== "ProviderHttpError") return
      expect(error.url).toBe(`https://acme.example.com/api/things/${REDACTED}`)
      expect(error.body).toEqual({ echo: REDACTED, encoded: REDACTED, auth: `Basic ${REDACTED}` })
      const text = JSON.stringify({ ...error, message: error.message })
      for (const form of forms) expect(text).not.toContain(form)
      // the transport gets the same selection: the key and the Basic token, not the subdomain
      expect(transport.requests[0]!.secrets).toEqual(expect.arrayContaining([credentials.apiKey, basic]))
      expect(transport.requests[0]!.secrets).not.toContain("acme")
    }))

  it.effect("the same connector without secret: false hides the subdomain", () =>
    Effect.gen(function*() {
      const transport = fakeTransport(() => json({}, 500))
      const fields = subdomainPlain.replace("          secret: false\n", "")
      const error = yield* Effect.flip(
        runAction(withFields(fields), "get_thing", { id: "1" }, { credentials }).pipe(Effect.provide(transport.layer))
      )
      expect(error._tag === "ProviderHttpError" && error.url).toBe(`https://${REDACTED}.example.com/api/things/1`)
    }))
})
