import Semver from "semver"

/*
 * Which version of a connector counts: the order of versions, the `latest` an account gets when
 * it names none, and a profile's version spec. One rule, used wherever versions are chosen
 * (the registry, the coverage tables, the sandbox command, the tests).
 */

/** Newest first, by semver precedence. */
export const newestFirst = <A extends { readonly version: string }>(rows: ReadonlyArray<A>): Array<A> =>
  [...rows].sort((a, b) => Semver.rcompare(a.version, b.version))

/** `latest`: the highest stable version, or the highest pre-release when there is no stable one. */
export const latestOf = <A extends { readonly version: string }>(rows: ReadonlyArray<A>): A | undefined => {
  const sorted = newestFirst(rows)
  return sorted.find((row) => Semver.prerelease(row.version) === null) ?? sorted[0]
}

/** Resolves a profile's version spec: an exact version, `latest`, or a semver range. */
export const resolveSpec = <A extends { readonly version: string }>(rows: ReadonlyArray<A>, spec: string) => {
  if (spec === "latest") return latestOf(rows)
  const exact = rows.find((row) => row.version === spec)
  if (exact !== undefined) return exact
  if (Semver.validRange(spec) === null) return undefined
  const best = Semver.maxSatisfying(rows.map((row) => row.version), spec)
  return best === null ? undefined : rows.find((row) => row.version === best)
}

export const isVersionSpec = (spec: string) => spec === "latest" || Semver.validRange(spec) !== null

/**
 * The `latest` of each key among `items` (the version an account of that key gets), by key in
 * key order: e.g. the newest shipped version of each built-in connector.
 */
export const latestOfEach = <A>(
  items: Iterable<A>,
  identify: (item: A) => { readonly key: string; readonly version: string }
): ReadonlyMap<string, A> => {
  const byKey = new Map<string, Array<{ readonly version: string; readonly item: A }>>()
  for (const item of items) {
    const { key, version } = identify(item)
    const versions = byKey.get(key) ?? []
    versions.push({ version, item })
    byKey.set(key, versions)
  }
  return new Map([...byKey].sort(([a], [b]) => a.localeCompare(b)).map(([key, versions]) => [key, latestOf(versions)!.item]))
}
