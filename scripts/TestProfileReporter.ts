import { readFileSync, writeFileSync } from "node:fs"
import { relative } from "node:path"
import type { Reporter, TestModule, Vitest } from "vitest/node"

/**
 * `pnpm test:profile`: where the suite's time goes. For each test file vitest reports how
 * long it took to import (collect), and the tests' and hooks' time together; the tests' own
 * durations are summed, so what remains of a file's time is its hooks: the fixtures a file
 * builds once (servers, databases, browsers, child processes). Which fixtures a file builds is
 * read from its source (the helpers it calls), so the table says what the hook time is spent on.
 * Prints the 20 slowest files and tests and the total, and writes every figure as JSON to
 * `TEST_PROFILE_OUT` (default test-profile.json) for before/after comparisons.
 */

/** The expensive fixtures, by the test helpers that build them. */
const FIXTURES: ReadonlyArray<readonly [label: string, pattern: RegExp]> = [
  ["server processes", /\b(startServing|serveOnFreePort|launch|startSandboxProcess|runCli)\(|FleetSupport/],
  ["Chromium", /\b(BrowserLive|TestBrowser|chromium)\b/],
  ["in-process server on a migrated copy", /\bTestServer\(|\bTestDatabase\(|\bSandboxServer\(|\bConnectTestServer\(/],
  ["sandbox providers", /\bSandboxLive\(|\bstartSandbox\(/],
  ["build (esbuild/tsc)", /\b(build\.mjs|esbuild|pnpm pack|tsc)\b/],
  ["PostgreSQL with DATABASE_URL", /DATABASE_URL/]
]

const fixturesOf = (file: string): string => {
  let source = ""
  try {
    source = readFileSync(file, "utf8")
  } catch {
    return ""
  }
  return FIXTURES.filter(([, pattern]) => pattern.test(source)).map(([label]) => label).join(", ")
}

interface FileFigures {
  readonly file: string
  readonly state: string
  readonly totalMs: number
  readonly importMs: number
  readonly hooksMs: number
  readonly testsMs: number
  readonly tests: number
  readonly fixtures: string
}

interface TestFigures {
  readonly file: string
  readonly name: string
  readonly ms: number
  readonly state: string
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1)

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")
  return [line(header), ...rows.map(line)].join("\n")
}

export default class TestProfileReporter implements Reporter {
  private root = process.cwd()
  private startedAt = Date.now()

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root
    this.startedAt = Date.now()
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const wallMs = Date.now() - this.startedAt
    const files: Array<FileFigures> = []
    const tests: Array<TestFigures> = []
    for (const module of modules) {
      const file = relative(this.root, module.moduleId)
      const diagnostic = module.diagnostic()
      let testsMs = 0
      let count = 0
      for (const test of module.children.allTests()) {
        const ms = test.diagnostic()?.duration ?? 0
        testsMs += ms
        count += 1
        tests.push({ file, name: test.fullName, ms, state: test.result().state })
      }
      const importMs = diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.prepareDuration +
        diagnostic.environmentSetupDuration
      files.push({
        file,
        state: module.state(),
        totalMs: importMs + diagnostic.duration,
        importMs,
        hooksMs: Math.max(0, diagnostic.duration - testsMs),
        testsMs,
        tests: count,
        fixtures: fixturesOf(module.moduleId)
      })
    }
    files.sort((a, b) => b.totalMs - a.totalMs)
    tests.sort((a, b) => b.ms - a.ms)
    const sum = (pick: (f: FileFigures) => number) => files.reduce((acc, f) => acc + pick(f), 0)

    const out = [
      "",
      "The 20 slowest test files (seconds; hooks = the file's fixtures: servers, databases, browsers, processes)",
      table(
        ["total", "import", "hooks", "tests", "n", "file · fixtures"],
        files.slice(0, 20).map((f) => [
          seconds(f.totalMs),
          seconds(f.importMs),
          seconds(f.hooksMs),
          seconds(f.testsMs),
          String(f.tests),
          `${f.file}${f.state === "passed" ? "" : ` (${f.state})`}${f.fixtures === "" ? "" : ` · ${f.fixtures}`}`
        ])
      ),
      "",
      "The 20 slowest tests (seconds)",
      table(
        ["time", "test"],
        tests.slice(0, 20).map((t) => [seconds(t.ms), `${t.file} > ${t.name}${t.state === "passed" ? "" : ` (${t.state})`}`])
      ),
      "",
      `Total: ${files.length} files, ${tests.length} tests, ${seconds(wallMs)} s wall clock; summed over files ` +
      `${seconds(sum((f) => f.totalMs))} s (import ${seconds(sum((f) => f.importMs))}, hooks ${
        seconds(sum((f) => f.hooksMs))
      }, tests ${seconds(sum((f) => f.testsMs))}); files over 90 s: ${files.filter((f) => f.totalMs > 90_000).length}`
    ]
    console.log(out.join("\n"))
    const target = process.env["TEST_PROFILE_OUT"] ?? "test-profile.json"
    writeFileSync(target, JSON.stringify({ wallMs, files, tests }, null, 2))
    console.log(`Every figure: ${target}`)
  }
}
