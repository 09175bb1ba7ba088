import { describe, expect, it } from "@effect/vitest"
import { latestOf, latestOfEach, newestFirst, resolveSpec } from "../src/versionOrder.js"

const rows = (...versions: Array<string>) => versions.map((version) => ({ version }))

describe("version order", () => {
  it("orders by semver precedence, not as text, and latest prefers a stable version", () => {
    expect(newestFirst(rows("1.9.0", "1.10.0", "1.2.0")).map((row) => row.version)).toEqual(["1.10.0", "1.9.0", "1.2.0"])
    expect(latestOf(rows("1.0.0", "2.0.0-beta.1"))?.version).toBe("1.0.0")
    expect(latestOf(rows("2.0.0-beta.1", "2.0.0-beta.2"))?.version).toBe("2.0.0-beta.2")
    expect(resolveSpec(rows("1.2.0", "1.10.0", "2.0.0"), "1.x")?.version).toBe("1.10.0")
  })

  it("latestOfEach keeps the latest item of each key, in key order", () => {
    const items = [
      { key: "personio", version: "1.10.0", file: "a" },
      { key: "bamboohr", version: "1.4.0", file: "b" },
      { key: "personio", version: "1.9.0", file: "c" },
      { key: "bamboohr", version: "1.5.0-rc.1", file: "d" }
    ]
    const latest = latestOfEach(items, (item) => item)
    expect([...latest.keys()]).toEqual(["bamboohr", "personio"])
    expect([...latest.values()].map((item) => item.file)).toEqual(["b", "a"])
  })
})
