import { describe, expect, it } from "@effect/vitest"
import { canonicalJson, sha256Hex } from "../src/index.js"

describe("canonicalJson", () => {
  it("sorts keys at every level and drops whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}'
    )
  })

  it("is independent of insertion order", () => {
    expect(canonicalJson({ x: 1, y: [1, 2], z: null })).toBe(canonicalJson({ z: null, y: [1, 2], x: 1 }))
  })

  it("keeps array order and follows JSON for the rest", () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]))
    expect(canonicalJson({ a: undefined, b: [undefined, Infinity, NaN], c: "é\n" }))
      .toBe('{"b":[null,null,null],"c":"é\\n"}')
    expect(canonicalJson(null)).toBe("null")
  })
})

describe("sha256Hex", () => {
  it("is the lowercase hex SHA-256 of the UTF-8 text", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })
})
