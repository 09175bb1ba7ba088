import { builtinConnectorSources } from "@switchyard/connectors"
import { latestOfEach } from "@switchyard/engine"
import * as Path from "node:path"

/**
 * The action ids of the newest shipped version of the built-in connector `key` (the version an
 * account gets when it names none), or of `version`, read from its YAML.
 */
export const newestBuiltinActions = (key: string, version?: string): ReadonlySet<string> => {
  const versionOf = (file: string) => Path.basename(file, ".yaml")
  const versions = builtinConnectorSources().filter((source) =>
    Path.basename(Path.dirname(source.file)) === key && (version === undefined || versionOf(source.file) === version)
  )
  const newest = latestOfEach(versions, (source) => ({ key, version: versionOf(source.file) })).get(key)
  if (newest === undefined) throw new Error(`no built-in connector ${key}${version === undefined ? "" : `@${version}`}`)
  return new Set(Array.from(newest.yaml.matchAll(/^\s*- actionId: (\w+)/gm), (match) => match[1]!))
}
