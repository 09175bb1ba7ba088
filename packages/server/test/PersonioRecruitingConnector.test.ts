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

/** A shipped version of the connector, parsed. */
const shipped = (version: string) => {
  const source = builtinConnectorSources().find((s) => s.file.endsWith(`personio_recruiting/${version}.yaml`))
  if (source === undefined) throw new Error(`personio_recruiting@${version} is not shipped`)
  return Either.getOrThrow(parseConnector(source.yaml))
}

const parsed = shipped("1.0.0")

/** An in-memory Personio answering every request with `answer`, keeping the requests it got. */
const personio = (answer: ProviderResponse) => {
  const requests: Array<ProviderRequest> = []
  const transport = Layer.succeed(ProviderTransport, {
    send: (request) => Effect.sync(() => (requests.push(request), answer))
  })
  return { requests, transport }
}

const credentials = { companyId: "4711", accessToken: "papi-recruiting-secret-token" }

const create = (body: unknown, answer: ProviderResponse = { status: 201, headers: {}, body: null }, given = credentials) => {
  const { requests, transport } = personio(answer)
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

/*
 * 1.1.0 reads the career site's XML feed (GET https://{company}.jobs.personio.de/xml), public and
 * on its own server, as jobs, job postings, departments and locations. The feed below follows
 * the document's XmlResponse (root workzag-jobs, one <position> per open position, descriptions
 * in CDATA, as its example shows them).
 */
const feedParsed = shipped("1.1.0")

const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<workzag-jobs>
  <position>
    <id>4103</id>
    <subcompany></subcompany>
    <office>Munich</office>
    <department>Management</department>
    <recruitingCategory>Various</recruitingCategory>
    <name>Office &amp; Feelgood Manager (m/w)</name>
    <jobDescriptions>
      <jobDescription>
        <name>Beschreibung</name>
        <value><![CDATA[<p>Für unser Büro</p>]]></value>
      </jobDescription>
      <jobDescription>
        <name>Dein Profil</name>
        <value><![CDATA[<ul><li>Herzlich</li></ul>]]></value>
      </jobDescription>
    </jobDescriptions>
    <employmentType>permanent</employmentType>
    <seniority>entry-level</seniority>
    <schedule>part-time</schedule>
    <yearsOfExperience>lt-1</yearsOfExperience>
    <keywords>office manager,organisation</keywords>
    <occupation>office_management</occupation>
    <occupationCategory>administrative_and_clerical</occupationCategory>
    <createdAt>2016-05-31T12:14:07+0200</createdAt>
  </position>
  <position>
    <id>4104</id>
    <office>Berlin</office>
    <department>Engineering</department>
    <name>Backend Engineer</name>
    <jobDescriptions/>
    <employmentType>trainee</employmentType>
    <schedule>full-time</schedule>
    <createdAt>2017-01-02T09:00:00+0100</createdAt>
  </position>
  <position>
    <id>4105</id>
    <office>Munich</office>
    <department>Engineering</department>
    <name>Frontend Engineer</name>
    <createdAt>2017-01-03T09:00:00+0100</createdAt>
  </position>
</workzag-jobs>`

const feedCredentials = { companyId: "4711", accessToken: "papi-recruiting-secret-token", careerSite: "acme" }

const readFeed = (
  actionId: string,
  inputs: Record<string, unknown> = {},
  answer: ProviderResponse = { status: 200, headers: { "content-type": "text/xml; charset=utf-8" }, body: FEED },
  given: Record<string, unknown> = feedCredentials
) => {
  const { requests, transport } = personio(answer)
  return runAction(feedParsed, actionId, inputs, { credentials: given }).pipe(
    Effect.provide(transport),
    Effect.either,
    Effect.map((result) => ({ result, requests }))
  )
}

describe("personio_recruiting@1.1.0: the career site's XML feed", () => {
  it.effect("reads the feed on the career site's host, public: no token, the company id, the language", () =>
    Effect.gen(function*() {
      const { requests, result } = yield* readFeed("ats_list_jobs")
      expect(Either.isRight(result)).toBe(true)
      expect(requests).toHaveLength(1)
      expect(requests[0]!.method).toBe("GET")
      expect(requests[0]!.url).toBe("https://acme.jobs.personio.de/xml?language=en")
      const headers = Object.fromEntries(Object.entries(requests[0]!.headers).map(([name, value]) => [name.toLowerCase(), value]))
      expect(headers["authorization"]).toBeUndefined()
      expect(headers["x-company-id"]).toBe("4711")
      expect(JSON.stringify([requests[0]!.url, requests[0]!.headers, requests[0]!.body])).not.toContain(feedCredentials.accessToken)
      // one of the feed's languages, as given; anything else reads the English feed
      const german = yield* readFeed("ats_list_jobs", {}, undefined, { ...feedCredentials, language: " DE " })
      expect(german.requests[0]!.url).toBe("https://acme.jobs.personio.de/xml?language=de")
      const other = yield* readFeed("ats_list_jobs", {}, undefined, { ...feedCredentials, language: "english" })
      expect(other.requests[0]!.url).toBe("https://acme.jobs.personio.de/xml?language=en")
    }))

  it.effect("lists each open position as a published job, its department and office as ids", () =>
    Effect.gen(function*() {
      const { result } = yield* readFeed("ats_list_jobs")
      const jobs = Either.getOrThrow(result).data as Array<Record<string, unknown>>
      expect(jobs.map((job) => job.id)).toEqual(["4103", "4104", "4105"])
      expect(jobs[0]).toEqual({
        id: "4103",
        remote_id: "4103",
        title: "Office & Feelgood Manager (m/w)",
        description: "<p>Für unser Büro</p><ul><li>Herzlich</li></ul>",
        status: "published",
        job_status: { value: "published", source_value: "published" },
        department_ids: ["Management"],
        remote_department_ids: ["Management"],
        location_ids: ["Munich"],
        remote_location_ids: ["Munich"],
        created_at: "2016-05-31T10:14:07.000Z"
      })
      // a position without descriptions has none
      expect(jobs[1]!.description ?? null).toBeNull()
    }))

  it.effect("reads job postings with their content, employment type and schedule", () =>
    Effect.gen(function*() {
      const { result } = yield* readFeed("ats_list_job_postings")
      const postings = Either.getOrThrow(result).data as Array<Record<string, unknown>>
      expect(postings[0]).toMatchObject({
        id: "4103",
        title: "Office & Feelgood Manager (m/w)",
        locations: [{ id: "Munich", remote_id: "Munich", name: "Munich" }],
        internal: "false",
        status: { value: "live", source_value: "live" },
        job_id: "4103",
        content: { html: "<p>Für unser Büro</p><ul><li>Herzlich</li></ul>" },
        employment_type: { value: "permanent", source_value: "permanent" },
        employment_contract_type: { value: "part_time", source_value: "part-time" }
      })
      // trainee has no unified employment type: kept as its source value
      expect(postings[1]).toMatchObject({
        employment_type: { value: "unmapped_value", source_value: "trainee" },
        employment_contract_type: { value: "full_time", source_value: "full-time" }
      })
    }))

  it.effect("gets a job and a job posting by id, and answers 404 for a position not in the feed", () =>
    Effect.gen(function*() {
      const job = yield* readFeed("ats_get_job", { id: "4104" })
      expect(Either.getOrThrow(job.result).data).toMatchObject({ id: "4104", title: "Backend Engineer", location_ids: ["Berlin"] })
      const posting = yield* readFeed("ats_get_job_posting", { id: "4105" })
      expect(Either.getOrThrow(posting.result).data).toMatchObject({ id: "4105", title: "Frontend Engineer" })
      for (const actionId of ["ats_get_job", "ats_get_job_posting"]) {
        const missing = yield* readFeed(actionId, { id: "9999" })
        expect(Either.flip(missing.result).pipe(Either.getOrThrow), actionId).toMatchObject({
          _tag: "CustomProviderError",
          targetStatus: 404,
          message: "No open position with this id on the career site"
        })
      }
    }))

  it.effect("lists each department and office the positions name once, named by itself, and gets them by name", () =>
    Effect.gen(function*() {
      const departments = Either.getOrThrow((yield* readFeed("ats_list_departments")).result).data
      expect(departments).toEqual([
        { id: "Management", remote_id: "Management", name: "Management" },
        { id: "Engineering", remote_id: "Engineering", name: "Engineering" }
      ])
      const locations = Either.getOrThrow((yield* readFeed("ats_list_locations")).result).data
      expect(locations).toEqual([
        { id: "Munich", remote_id: "Munich", name: "Munich" },
        { id: "Berlin", remote_id: "Berlin", name: "Berlin" }
      ])
      expect(Either.getOrThrow((yield* readFeed("ats_get_department", { id: "Engineering" })).result).data)
        .toEqual({ id: "Engineering", remote_id: "Engineering", name: "Engineering" })
      expect(Either.getOrThrow((yield* readFeed("ats_get_location", { id: "Berlin" })).result).data)
        .toEqual({ id: "Berlin", remote_id: "Berlin", name: "Berlin" })
      const nowhere = yield* readFeed("ats_get_location", { id: "Paris" })
      expect(Either.flip(nowhere.result).pipe(Either.getOrThrow)).toMatchObject({ targetStatus: 404 })
    }))

  it.effect("reads a feed with one position or none as a list, and answers a career site that does not exist 404", () =>
    Effect.gen(function*() {
      const xml = (body: string): ProviderResponse => ({ status: 200, headers: { "content-type": "text/xml" }, body })
      const one = yield* readFeed("ats_list_jobs", {}, xml("<workzag-jobs><position><id>1</id><name>Only</name></position></workzag-jobs>"))
      expect((Either.getOrThrow(one.result).data as Array<{ id: string }>).map((job) => job.id)).toEqual(["1"])
      const none = yield* readFeed("ats_list_departments", {}, xml("<workzag-jobs></workzag-jobs>"))
      expect(Either.getOrThrow(none.result).data).toEqual([])
      const gone = yield* readFeed("ats_get_job", { id: "1" }, xml("<workzag-jobs/>"))
      expect(Either.flip(gone.result).pipe(Either.getOrThrow)).toMatchObject({ targetStatus: 404 })
      const unknownSite = yield* readFeed("ats_list_jobs", {}, { status: 404, headers: {}, body: "Not Found" })
      expect(Either.flip(unknownSite.result).pipe(Either.getOrThrow)).toMatchObject({
        _tag: "CustomProviderError",
        targetStatus: 404,
        message: "Personio has no career site by this name (the account's career site name)"
      })
      // an answer that is not the feed is Personio's fault (502), not an empty list
      const html = yield* readFeed("ats_list_jobs", {}, { status: 200, headers: { "content-type": "text/html" }, body: "<html><body>Wartung" })
      expect(Either.flip(html.result).pipe(Either.getOrThrow)).toMatchObject({ _tag: "ProviderTransportError", reason: "invalid_response" })
    }))

  it.effect("never lets the career site name point the request at another host", () =>
    Effect.gen(function*() {
      for (const careerSite of ["evil.example/x?", "evil.example#", "a b"]) {
        const { requests, result } = yield* readFeed("ats_list_jobs", {}, undefined, { ...feedCredentials, careerSite })
        expect(Either.isLeft(result), careerSite).toBe(true)
        expect(requests, careerSite).toHaveLength(0)
      }
      // a name with dots stays under jobs.personio.de
      const dotted = yield* readFeed("ats_list_jobs", {}, undefined, { ...feedCredentials, careerSite: "evil.example" })
      expect(new URL(dotted.requests[0]!.url).hostname).toBe("evil.example.jobs.personio.de")
    }))
})
