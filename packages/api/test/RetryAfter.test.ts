import { describe, expect, it } from "@effect/vitest"
import { isIdempotentMethod, parseRetryAfter } from "../src/index.js"

describe("RetryAfter", () => {
  it("reads Retry-After as seconds or an HTTP date, relative to now", () => {
    const now = Date.parse("2025-01-01T00:00:00Z")
    expect(parseRetryAfter("3", now)).toBe(3)
    expect(parseRetryAfter(" 1.5 ", now)).toBe(1.5)
    expect(parseRetryAfter("0", now)).toBe(0)
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:10 GMT", now)).toBe(10)
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", now)).toBe(0)
  })

  it("has no wait for an absent, empty or unreadable header", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined()
    expect(parseRetryAfter("")).toBeUndefined()
    expect(parseRetryAfter("   ")).toBeUndefined()
    expect(parseRetryAfter("soon")).toBeUndefined()
  })

  it("counts GET, HEAD, PUT, DELETE and OPTIONS as safe to repeat, POST and PATCH not", () => {
    for (const method of ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]) expect(isIdempotentMethod(method)).toBe(true)
    for (const method of ["POST", "PATCH"]) expect(isIdempotentMethod(method)).toBe(false)
  })
})
