import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { ApiKeys } from "../src/features/auth/ApiKeys.js"
import { bootstrap } from "../src/app/Bootstrap.js"
import { ProjectsRepo } from "../src/features/projects/ProjectsRepo.js"
import { TestDatabase } from "./support/TestServer.js"

const Services = (overrides: Record<string, string>) =>
  Layer.mergeAll(ProjectsRepo.Default, ApiKeys.Default).pipe(Layer.provideMerge(TestDatabase(overrides)))

/** Runs the bootstrap, returning what it printed to the console. */
const runBootstrap = Effect.gen(function*() {
  const log = vi.spyOn(console, "log").mockImplementation(() => {})
  try {
    yield* bootstrap
    return log.mock.calls.map((args) => args.join(" ")).join("\n")
  } finally {
    log.mockRestore()
  }
})

describe("bootstrap", () => {
  it.live("creates the default organization, project and a Full Access key printed once", () =>
    Effect.gen(function*() {
      const printed = yield* runBootstrap
      const key = printed.match(/swy_[A-Za-z0-9_-]{43}/)?.[0]
      expect(key).toBeDefined()
      const apiKeys = yield* ApiKeys
      const caller = yield* apiKeys.authenticate(key!)
      expect(Option.map(caller, (c) => c.scope)).toEqual(Option.some("full_access"))
      const projects = yield* ProjectsRepo
      expect((yield* projects.listOrganizations).map((o) => o.name)).toEqual(["Default organization"])
      expect((yield* projects.listProjects).map((p) => p.name)).toEqual(["Default project"])
      const keys = yield* apiKeys.list(Option.none())
      expect(keys).toHaveLength(1)
      expect(JSON.stringify(keys)).not.toContain(key!)

      // A second start on the same database creates nothing and prints no key.
      expect(yield* runBootstrap).toBe("")
      expect(yield* projects.listProjects).toHaveLength(1)
      expect(yield* apiKeys.list(Option.none())).toHaveLength(1)
    }).pipe(Effect.provide(Services({ SWITCHYARD_BOOTSTRAP_API_KEY: "" }))), 60_000)

  it.live("registers SWITCHYARD_BOOTSTRAP_API_KEY instead, once", () =>
    Effect.gen(function*() {
      const printed = yield* runBootstrap
      expect(printed).not.toContain("swy_")
      const apiKeys = yield* ApiKeys
      expect(Option.isSome(yield* apiKeys.authenticate("automation-key-0123456789abcdef"))).toBe(true)
      yield* runBootstrap
      expect(yield* apiKeys.list(Option.none())).toHaveLength(1)
    }).pipe(Effect.provide(Services({ SWITCHYARD_BOOTSTRAP_API_KEY: "automation-key-0123456789abcdef" }))), 60_000)

  it.live("refuses a weak bootstrap key and stores nothing", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(runBootstrap)
      expect(exit._tag).toBe("Failure")
      expect(String(exit)).toContain("at least 24 characters")
      const projects = yield* ProjectsRepo
      expect(yield* projects.listProjects).toHaveLength(0)
    }).pipe(Effect.provide(Services({ SWITCHYARD_BOOTSTRAP_API_KEY: "short" }))), 60_000)
})
