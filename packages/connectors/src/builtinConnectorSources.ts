import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { parse } from "yaml"

export interface ChangelogEntry {
  readonly version: string
  readonly summary: string
  readonly labels: ReadonlyArray<string>
  readonly release_date: string
  readonly affected_actions: ReadonlyArray<string>
}

/** One shipped connector version: its YAML text and its changelog entry. */
export interface BuiltinConnectorSource {
  readonly file: string
  readonly yaml: string
  readonly changelog: ChangelogEntry
}

/**
 * The package's `connectors/` directory, found through the package itself rather than this
 * module's place: from src/, from dist/ and from inside an application's bundle alike.
 */
export const CONNECTORS_DIR = Path.join(
  Path.dirname(createRequire(import.meta.url).resolve("@switchyard/connectors/package.json")),
  "connectors"
)

const isChangelogEntry = (value: unknown): value is ChangelogEntry => {
  const entry = value as Record<string, unknown>
  return typeof entry === "object" && entry !== null && typeof entry.version === "string" &&
    typeof entry.summary === "string" && Array.isArray(entry.labels) && typeof entry.release_date === "string" &&
    Array.isArray(entry.affected_actions)
}

/**
 * Reads `connectors/<key>/<version>.yaml` with the matching entry of `<key>/changelog.yaml`.
 * Every shipped version must have a changelog entry; a missing one is an error.
 */
export const builtinConnectorSources = (dir: string = CONNECTORS_DIR): ReadonlyArray<BuiltinConnectorSource> =>
  Fs.readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((connectorDir) => {
      const base = Path.join(dir, connectorDir.name)
      const changelog = parse(Fs.readFileSync(Path.join(base, "changelog.yaml"), "utf8")) as unknown
      if (!Array.isArray(changelog) || !changelog.every(isChangelogEntry)) {
        throw new Error(`${base}/changelog.yaml must be a list of {version, summary, labels, release_date, affected_actions}`)
      }
      return Fs.readdirSync(base)
        .filter((name) => name.endsWith(".yaml") && name !== "changelog.yaml")
        .sort()
        .map((name) => {
          const version = name.slice(0, -".yaml".length)
          const entry = changelog.find((candidate) => candidate.version === version)
          if (entry === undefined) throw new Error(`${base}/changelog.yaml has no entry for version ${version}`)
          const file = Path.join(base, name)
          return { file, yaml: Fs.readFileSync(file, "utf8"), changelog: { ...entry, release_date: String(entry.release_date) } }
        })
    })
