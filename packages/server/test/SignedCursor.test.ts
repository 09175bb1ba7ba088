import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { signedCursor } from "../src/platform/crypto/SignedCursor.js"

describe("SignedCursor", () => {
  const cursor = signedCursor(Buffer.alloc(32, 1))

  it("opens what it sealed, and nothing another key sealed", () => {
    const token = cursor.seal({ p: "project", t: "123" })
    expect(cursor.open(token)).toEqual(Either.right({ p: "project", t: "123" }))
    expect(signedCursor(Buffer.alloc(32, 2)).open(token)).toEqual(Either.left("signature does not match"))
  })

  it("refuses a changed payload under the original signature", () => {
    const [, signature] = cursor.seal({ p: "project" }).split(".")
    const forged = `${Buffer.from(JSON.stringify({ p: "other" })).toString("base64url")}.${signature}`
    expect(cursor.open(forged)).toEqual(Either.left("signature does not match"))
  })

  it("refuses malformed and oversized tokens without decoding them", () => {
    expect(cursor.open("no-signature")).toEqual(Either.left("malformed"))
    expect(cursor.open("a.b.c")).toEqual(Either.left("malformed"))
    expect(cursor.open("x".repeat(5000))).toEqual(Either.left("too long"))
  })
})
