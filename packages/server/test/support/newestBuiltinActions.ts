import { builtinConnectorSources } from "@switchyard/connectors"
import * as Path from "node:path"
import * as Semver from "semver"

/**
 * The action ids of the newest shipped version of the built-in connector `key` (the version an
 * account gets when it names none), or of `version`, read from its YAML.
 */
export const newestBuiltinActions = (key: string, version?: string): ReadonlySet<string> => {
  const versionOf = (file: string) => Path.basename(file, ".yaml")
  const versions = builtinConnectorSources().filter((source) =>
    Path.basename(Path.dirname(source.file)) === key && (version === undefined || versionOf(source.file) === version)
  )
  if (versions.length === 0) throw new Error(`no built-in connector ${key}${version === undefined ? "" : `@${version}`}`)
  const newest = versions.reduce((a, b) => (Semver.gte(versionOf(a.file), versionOf(b.file)) ? a : b))
  return new Set(Array.from(newest.yaml.matchAll(/^\s*- actionId: (\w+)/gm), (match) => match[1]!))
}
