import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  type ActionDefinition,
  coercionFor,
  inputsFromRequest,
  toIsoDateTime,
  validateInputs
} from "../src/index.js"

describe("coercions", () => {
  it("datetime_string becomes ISO 8601 UTC with milliseconds", () => {
    expect(toIsoDateTime("2024-01-15")).toBe("2024-01-15T00:00:00.000Z")
    expect(toIsoDateTime("2024-01-15T10:00:00Z")).toBe("2024-01-15T10:00:00.000Z")
    expect(toIsoDateTime("2024-01-15T10:00:00.1234+02:00")).toBe("2024-01-15T08:00:00.123Z")
    expect(toIsoDateTime("2024-01-15 10:00")).toBe("2024-01-15T10:00:00.000Z")
    expect(toIsoDateTime("2024-01-15T10:00:00-0530")).toBe("2024-01-15T15:30:00.000Z")
    expect(toIsoDateTime(1_700_000_000)).toBe("2023-11-14T22:13:20.000Z")
    expect(toIsoDateTime(1_700_000_000_000)).toBe("2023-11-14T22:13:20.000Z")
    expect(toIsoDateTime("1700000000")).toBe("2023-11-14T22:13:20.000Z")
    expect(toIsoDateTime("Tue, 15 Nov 1994 08:12:31 GMT")).toBe("1994-11-15T08:12:31.000Z")
    expect(toIsoDateTime("2024-02-31")).toBeNull()
    expect(toIsoDateTime("next tuesday")).toBeNull()
    expect(toIsoDateTime("01/02/2024")).toBeNull()
  })

  it("number, integer, boolean and string; null and undefined pass through", () => {
    expect(coercionFor("number")("12.5")).toBe(12.5)
    expect(coercionFor("number")("12abc")).toBeNull()
    expect(coercionFor("integer")("12.9")).toBe(12)
    expect(coercionFor("boolean")("TRUE")).toBe(true)
    expect(coercionFor("boolean")(0)).toBe(false)
    expect(coercionFor("boolean")("maybe")).toBeNull()
    expect(coercionFor("string")(7)).toBe("7")
    expect(coercionFor("string")({ a: 1 })).toEqual({ a: 1 })
    expect(coercionFor("datetime_string")(null)).toBeNull()
    expect(coercionFor("number")(undefined)).toBeUndefined()
    expect(coercionFor("custom")({ a: 1 })).toEqual({ a: 1 })
  })
})

const action = {
  inputs: [
    { name: "id", type: "string", in: "path", required: true },
    { name: "page_size", type: "number", in: "query" },
    { name: "raw", type: "boolean", in: "query" },
    { name: "since", type: "datetime_string", in: "query" },
    { name: "status", type: "enum", in: "query", oneOf: { values: ["active", "inactive"] } },
    { name: "ids", type: "string", in: "query", array: true },
    { name: "body", type: "object", in: "body" },
    { name: "x-trace", type: "string", in: "headers" }
  ]
} as unknown as Pick<ActionDefinition, "inputs">

describe("validateInputs", () => {
  it("coerces query text and keeps undeclared inputs", () => {
    const result = validateInputs(action, {
      id: 5,
      page_size: "25",
      raw: "false",
      since: "2024-01-01",
      status: "active",
      ids: "a, b,c",
      body: '{"x":1}',
      proxy: { a: 1 },
      empty: ""
    })
    expect(result).toEqual(Either.right({
      id: "5",
      page_size: 25,
      raw: false,
      since: "2024-01-01",
      status: "active",
      ids: ["a", "b", "c"],
      body: { x: 1 },
      proxy: { a: 1 },
      empty: ""
    }))
  })

  it("drops optional inputs given as empty text", () => {
    expect(validateInputs(action, { id: "1", page_size: "", since: null })).toEqual(Either.right({ id: "1" }))
  })

  it("names every bad input in one error", () => {
    const result = validateInputs(action, {
      page_size: "many",
      raw: "perhaps",
      since: "12345",
      status: "gone",
      ids: [1, { a: 1 }],
      body: [1]
    })
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isRight(result)) return
    expect(result.left.issues.map((issue) => issue.input)).toEqual([
      "id", "page_size", "raw", "since", "status", "ids[1]", "body"
    ])
    expect(result.left.message).toMatch(/^invalid inputs: id is required; page_size must be a number/)
    expect(result.left.message).toContain("status must be one of active, inactive")
  })

  it("checks the members an object input lists in `properties`, named by their path", () => {
    const withBody = {
      inputs: [{
        name: "body",
        type: "object" as const,
        in: "body" as const,
        required: true,
        properties: [
          { name: "candidate", type: "object", required: true, properties: [{ name: "id", type: "string", required: true }] },
          { name: "score", type: "number" }
        ]
      }]
    }
    expect(validateInputs(withBody, { body: { candidate: { id: 42, profile_url: "u" }, score: "7", other: 1 } })).toEqual(
      Either.right({ body: { candidate: { id: "42", profile_url: "u" }, score: 7, other: 1 } })
    )
    const missing = validateInputs(withBody, { body: { candidate: {}, score: "high" } })
    expect(Either.isLeft(missing) && missing.left.message).toBe(
      "invalid inputs: body.candidate.id is required; body.score must be a number, got non-numeric text"
    )
    const noCandidate = validateInputs(withBody, { body: { summary: "x" } })
    expect(Either.isLeft(noCandidate) && noCandidate.left.message).toBe("invalid inputs: body.candidate is required")
  })

  it("checks the listed members of each item of an array of objects", () => {
    const withAttachments = {
      inputs: [{
        name: "attachments",
        type: "object" as const,
        in: "body" as const,
        array: true,
        properties: [{ name: "url", type: "string", required: true }, { name: "size", type: "number" }]
      }]
    }
    expect(validateInputs(withAttachments, { attachments: [{ url: "a", size: "3" }] })).toEqual(
      Either.right({ attachments: [{ url: "a", size: 3 }] })
    )
    const broken = validateInputs(withAttachments, { attachments: [{ url: "a" }, { size: 1 }] })
    expect(Either.isLeft(broken) && broken.left.message).toBe("invalid inputs: attachments[1].url is required")
  })
})

describe("inputsFromRequest", () => {
  it("reads each declared input from its location", () => {
    const inputs = inputsFromRequest(action, {
      query: { page_size: "10", extra: "kept" },
      path: { id: "7" },
      body: { name: "Ada" },
      headers: { "X-Trace": "t-1", authorization: "Basic xyz" }
    })
    expect(inputs).toEqual({ page_size: "10", extra: "kept", id: "7", body: { name: "Ada" }, "x-trace": "t-1" })
  })

  it("other body inputs read members of the body; an undeclared body passes as `body`", () => {
    const members = {
      inputs: [
        { name: "first_name", type: "string", in: "body" },
        { name: "id", type: "string", in: "path" }
      ]
    } as unknown as Pick<ActionDefinition, "inputs">
    expect(inputsFromRequest(members, { body: { first_name: "Ada", other: 1 }, path: { id: "1" } })).toEqual({
      first_name: "Ada",
      id: "1"
    })
    expect(inputsFromRequest({ inputs: undefined }, { body: { type: "x" } })).toEqual({ body: { type: "x" } })
  })
})

describe("datetime formatting", () => {
  it("agrees with Date#toISOString across the calendar", () => {
    let seed = 42
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed / 2 ** 31
    }
    const samples = [0, -1, 951_782_400_000, 4_107_542_400_000, -62_135_596_800_000, 253_402_300_799_999]
    for (let i = 0; i < 2_000; i++) samples.push(Math.floor((random() * 2 - 1) * 62_000_000_000_000))
    for (const time of samples) {
      if (Math.abs(time) < 1e11) continue
      expect(toIsoDateTime(time), String(time)).toBe(new Date(time).toISOString())
    }
    for (const text of ["2000-02-29T23:59:59.999Z", "1999-12-31T24:00:00Z", "2024-03-01T00:00:00+14:00", "0001-01-01"]) {
      expect(toIsoDateTime(text), text).toBe(new Date(Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text)).toISOString())
    }
  })
})
