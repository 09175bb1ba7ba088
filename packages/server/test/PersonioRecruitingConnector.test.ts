import { describe, expect, it } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { parseConnector, type ProviderRequest, type ProviderResponse, ProviderTransport, runAction } from "@switchyard/engine"
import { Effect, Either, Layer } from "effect"

/*
 * What the built-in personio_recruiting connector sends to Personio, request by request: the
 * contract check (ProviderContracts.test.ts) holds its requests to Personio's document with
 * whatever bodies its seeds make; these pin down what each unified field becomes (the system
 * phase of an application status, the phone attribute, the recruiting channel), what is refused
 * before any request, and how Personio's refusals come back. The provider is an in-memory
 * transport that answers as the document says Personio does (201 without a body).
 */

const parsed = (() => {
  const source = builtinConnectorSources().find((s) => s.file.endsWith("personio_recruiting/1.0.0.yaml"))
  if (source === undefined) throw new Error("personio_recruiting@1.0.0 is not shipped")
  return Either.getOrThrow(parseConnector(source.yaml))
})()

const credentials = { companyId: "4711", accessToken: "papi-recruiting-secret-token" }

const create = (body: unknown, answer: ProviderResponse = { status: 201, headers: {}, body: null }, given = credentials) => {
  const requests: Array<ProviderRequest> = []
  const transport = Layer.succeed(ProviderTransport, {
    send: (request) => Effect.sync(() => (requests.push(request), answer))
  })
  return runAction(parsed, "ats_create_application", { body }, { credentials: given }).pipe(
    Effect.provide(transport),
    Effect.either,
    Effect.map((result) => ({ result, requests }))
  )
}

const candidate = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" }

const sentBody = (request: ProviderRequest | undefined) =>
  request?.body?._tag === "Json" ? request.body.value : request?.body

describe("personio_recruiting@1.0.0", () => {
  it.effect("creates the application at POST /v1/recruiting/applications with the token and the company id", () =>
    Effect.gen(function*() {
      const { requests, result } = yield* create({ job_id: "1234", candidate })
      // Personio answers 201 without a body: no id to give (null ids are left out of the record)
      expect(Either.getOrThrow(result).data).toEqual({})
      expect(requests).toHaveLength(1)
      const [request] = requests
      expect(request!.method).toBe("POST")
      expect(request!.url).toBe("https://api.personio.de/v1/recruiting/applications")
      const headers = Object.fromEntries(Object.entries(request!.headers).map(([name, value]) => [name.toLowerCase(), value]))
      expect(headers["authorization"]).toBe("Bearer papi-recruiting-secret-token")
      expect(headers["x-company-id"]).toBe("4711")
      // the partner headers only when the account has them
      expect(headers["x-personio-partner-id"]).toBeUndefined()
      expect(headers["x-personio-app-id"]).toBeUndefined()
      // submit_application: the job position id is an integer
      expect(sentBody(request)).toEqual({ first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", job_position_id: 1234 })
    }))

  it.effect("sends the partner and app ids of an account that has them", () =>
    Effect.gen(function*() {
      const { requests } = yield* create({ job_id: "1", candidate }, undefined, { ...credentials, partnerId: "partner-9", appId: "app-3" } as typeof credentials)
      const headers = Object.fromEntries(Object.entries(requests[0]!.headers).map(([name, value]) => [name.toLowerCase(), value]))
      expect(headers["x-personio-partner-id"]).toBe("partner-9")
      expect(headers["x-personio-app-id"]).toBe("app-3")
    }))

  it.effect("sends the phone as the applicant's phone attribute and a numeric source id as the recruiting channel", () =>
    Effect.gen(function*() {
      const listed = yield* create({
        job_id: "7",
        source: { id: "55", name: "Referral" },
        candidate: { ...candidate, phone_numbers: [{ type: "mobile", phone: "+49 89 1234" }], phone_number: "+1 555 0100" }
      })
      expect(sentBody(listed.requests[0])).toMatchObject({
        recruiting_channel_id: 55,
        attributes: [{ id: "phone", value: "+49 89 1234" }]
      })
      // the deprecated phone_number when no phone_numbers are given; a source id that is no integer is not sent
      const deprecated = yield* create({ job_id: "7", source: { id: "linkedin" }, candidate: { ...candidate, phone_number: "+1 555 0100" } })
      const body = sentBody(deprecated.requests[0]) as Record<string, unknown>
      expect(body.attributes).toEqual([{ id: "phone", value: "+1 555 0100" }])
      expect(body).not.toHaveProperty("recruiting_channel_id")
    }))

  it.effect("sets the system phase Personio has for an application status, and none for the others", () =>
    Effect.gen(function*() {
      const phases: Record<string, string | undefined> = {
        rejected: "rejected",
        declined_by_candidate: "withdrawn",
        offer: "offer",
        accepted: "accepted",
        hired: "accepted",
        interview: undefined,
        new: undefined
      }
      for (const [status, phase] of Object.entries(phases)) {
        const { requests } = yield* create({ job_id: "1", candidate, application_status: { value: status } })
        const body = sentBody(requests[0]) as Record<string, unknown>
        if (phase === undefined) expect(body, status).not.toHaveProperty("phase")
        else expect(body.phase, status).toEqual({ type: "system", id: phase })
      }
    }))

  it.effect("refuses, before any request, what Personio requires and the body lacks", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<[unknown, string]> = [
        [{ candidate }, "body.job_id is required"],
        [{ job_id: "backend-engineer", candidate }, "body.job_id must be a number"],
        // an existing candidate cannot be named: Personio takes the applicant with each application
        [{ job_id: "1", candidate_id: "42" }, "body.candidate is required"],
        [{ job_id: "1", candidate: { first_name: "Ada", last_name: "Lovelace" } }, "body.candidate.email is required"]
      ]
      for (const [body, message] of cases) {
        const { requests, result } = yield* create(body)
        expect(requests, message).toHaveLength(0)
        const error = Either.flip(result).pipe(Either.getOrThrow)
        expect(error._tag).toBe("ActionInputError")
        expect(error.message).toContain(message)
      }
    }))

  it.effect("answers Personio's 401 as its own message, and its 400 with Personio's error body, never with the token", () =>
    Effect.gen(function*() {
      const unauthorized = yield* create({ job_id: "1", candidate }, { status: 401, headers: {}, body: null })
      const error = Either.flip(unauthorized.result).pipe(Either.getOrThrow)
      expect(error).toMatchObject({ _tag: "CustomProviderError", targetStatus: 401 })
      expect(error.message).toContain("did not recognize the Recruiting API access token")
      expect(JSON.stringify(error)).not.toContain(credentials.accessToken)

      // error_response: {errors: [{field, errors: [{reason}]}]}
      const refused = {
        errors: [{ field: "email", errors: [{ reason: "errors.applicant-already-exists" }] }]
      }
      const duplicate = yield* create({ job_id: "1", candidate }, { status: 400, headers: { "content-type": "application/json" }, body: refused })
      const failure = Either.flip(duplicate.result).pipe(Either.getOrThrow)
      expect(failure).toMatchObject({ _tag: "ProviderHttpError", status: 400, body: refused })
      expect(JSON.stringify(failure)).not.toContain(credentials.accessToken)
    }))
})
