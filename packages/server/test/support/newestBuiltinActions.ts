import { builtinConnectorSources } from "@switchyard/connectors"
import * as Path from "node:path"
import * as Semver from "semver"

/**
 * The action ids of the newest shipped version of the built-in connector `key` (the version an
 * account gets when it names none), read from its YAML.
 */
export const newestBuiltinActions = (key: string): ReadonlySet<string> => {
  const versionOf = (file: string) => Path.basename(file, ".yaml")
  const versions = builtinConnectorSources().filter((source) => Path.basename(Path.dirname(source.file)) === key)
  if (versions.length === 0) throw new Error(`no built-in connector ${key}`)
  const newest = versions.reduce((a, b) => (Semver.gte(versionOf(a.file), versionOf(b.file)) ? a : b))
  return new Set(Array.from(newest.yaml.matchAll(/^\s*- actionId: (\w+)/gm), (match) => match[1]!))
}
