import type { ChangelogEntry, ConnectorOwner } from "@switchyard/api"
import { canonicalJson, latestOf, newestFirst, type ParsedConnector, parseConnector, parseConnectorValue } from "@switchyard/engine"
import { Effect, Either } from "effect"
import * as Crypto from "node:crypto"
import * as Semver from "semver"
import { ProjectsRepo } from "../projects/ProjectsRepo.js"
import { ConnectorConflict, ConnectorNotFound, InvalidConnectorSource } from "./ConnectorErrors.js"
import type { ConnectorRef } from "./ConnectorId.js"
import { ConnectorParser } from "./ConnectorParser.js"
import { type ConnectorVersionRow, ConnectorsRepo } from "./ConnectorsRepo.js"

/** A version as the calling project sees it: `custom` is its own, `builtin` the platform's. */
export interface VisibleVersion extends ConnectorVersionRow {
  readonly owner: ConnectorOwner
}

const ownerOf = (row: ConnectorVersionRow): ConnectorOwner => row.owner_project_id === null ? "builtin" : "custom"

const PARSED_CACHE_LIMIT = 500

export interface BuiltinConnectorSource {
  readonly file: string
  readonly yaml: string
  readonly changelog: ChangelogEntry
}

/**
 * The registry of immutable connector versions: what a project can see, how an address
 * resolves (custom before built-in), and the registration rules of the spec's Versioning.
 */
export class ConnectorRegistry extends Effect.Service<ConnectorRegistry>()("Switchyard/ConnectorRegistry", {
  effect: Effect.gen(function*() {
    const repo = yield* ConnectorsRepo
    const projects = yield* ProjectsRepo
    const parser = yield* ConnectorParser
    // Versions are immutable, so a parsed definition is cached by id and content hash.
    const parsed = new Map<string, ParsedConnector>()

    const visible = (projectId: string, keys?: ReadonlyArray<string>) =>
      repo.visibleVersions(projectId, keys).pipe(
        Effect.map((rows) => rows.map((row): VisibleVersion => ({ ...row, owner: ownerOf(row) })))
      )

    /** The owner automatic resolution picks: the project's custom connector if it has the key. */
    const ownersToTry = (ref: Pick<ConnectorRef, "owner">): ReadonlyArray<ConnectorOwner> =>
      ref.owner === undefined ? ["custom", "builtin"] : [ref.owner]

    const resolve = (projectId: string, ref: ConnectorRef) =>
      Effect.gen(function*() {
        const rows = yield* visible(projectId, [ref.key])
        for (const owner of ownersToTry(ref)) {
          const candidates = rows.filter((row) => row.owner === owner)
          const found = ref.version === undefined
            ? latestOf(candidates)
            : candidates.find((row) => row.version === ref.version)
          if (found !== undefined) return found
        }
        const what = `${ref.key}${ref.version === undefined ? "" : `@${ref.version}`}${ref.owner === undefined ? "" : `~${ref.owner}`}`
        return yield* new ConnectorNotFound({ connector: what })
      })

    /** The versions a profile of `key` chooses from: the project's own if it has any, else built-in. */
    const profileCandidates = (projectId: string, key: string) =>
      visible(projectId, [key]).pipe(Effect.map((rows) => {
        const custom = rows.filter((row) => row.owner === "custom")
        return custom.length > 0 ? custom : rows
      }))

    const remember = (cacheKey: string, connector: ParsedConnector) => {
      if (parsed.size >= PARSED_CACHE_LIMIT) parsed.delete(parsed.keys().next().value!)
      parsed.set(cacheKey, connector)
    }

    const load = (version: VisibleVersion) =>
      Effect.gen(function*() {
        const cacheKey = `${version.id}:${version.content_hash}`
        const cached = parsed.get(cacheKey)
        if (cached !== undefined) return cached
        const definition = yield* repo.definition(version.id).pipe(Effect.flatMap(Effect.orDie))
        // stored as JSON already: checked and compiled without the YAML reader
        const result = parseConnectorValue(definition)
        if (Either.isLeft(result)) {
          return yield* Effect.die(new Error(`stored connector ${version.key}@${version.version} no longer parses: ${result.left.message}`))
        }
        remember(cacheKey, result.right)
        return result.right
      })

    const parse = (yaml: string) =>
      parser.parse(yaml).pipe(
        Effect.mapError((error) => new InvalidConnectorSource({ message: `Invalid connector YAML: ${error.message}` }))
      )

    const rowFor = (connector: ParsedConnector) => ({
      title: connector.definition.info.title,
      description: connector.definition.info.description ?? null,
      categories: categoriesOf(connector),
      definition: JSON.parse(connector.canonical) as unknown,
      content_hash: connector.contentHash
    })

    /**
     * Registers a custom connector version from YAML. The version must be new and greater than
     * the latest unless `force`; the same version with other content is a conflict while the
     * project keeps versions immutable (its default), even with `force`. Re-posting identical
     * content is idempotent: it answers the stored version.
     */
    const registerYaml = (projectId: string, yaml: string, force: boolean) =>
      Effect.gen(function*() {
        const connector = yield* parse(yaml)
        const { key, version } = connector.definition.info
        return yield* Effect.gen(function*() {
          yield* repo.lockKey(projectId, key)
          const own = (yield* visible(projectId, [key])).filter((row) => row.owner === "custom")
          const same = own.find((row) => row.version === version)
          if (same !== undefined) {
            if (same.content_hash === connector.contentHash) return same
            const project = yield* projects.findProject(projectId).pipe(Effect.flatMap(Effect.orDie))
            if (project.immutable_versioning) {
              return yield* new ConnectorConflict({
                message: `Connector ${key}@${version} already exists with different content; versions are immutable in this project: register a new version`
              })
            }
            if (!force) {
              return yield* new ConnectorConflict({
                message: `Connector ${key}@${version} already exists with different content; pass force to replace it`
              })
            }
            yield* repo.replace(same.id, rowFor(connector))
            return { ...same, ...rowFor(connector), created_at: same.created_at }
          }
          const latest = newestFirst(own)[0]
          if (!force && latest !== undefined && !Semver.gt(version, latest.version)) {
            return yield* new ConnectorConflict({
              message: `Connector ${key}@${version} must be greater than the latest version ${latest.version} (or pass force)`
            })
          }
          return yield* insertVersion(projectId, connector, { changelog: null, mcp: null })
        }).pipe(
          repo.withTransaction,
          Effect.catchTag("SqlError", Effect.die),
          // the answer loads the version next: parsing the stored copy again would double
          // the work, so the committed version's parse is kept (refused uploads keep nothing)
          Effect.tap((stored) => {
            if (stored.content_hash === connector.contentHash) remember(`${stored.id}:${stored.content_hash}`, connector)
          })
        )
      })

    const insertVersion = (
      projectId: string | null,
      connector: ParsedConnector,
      extra: {
        readonly changelog: ChangelogEntry | null
        readonly mcp: { readonly url: string; readonly auth: "none" | "token" | "oauth" } | null
      }
    ) =>
      Effect.gen(function*() {
        const row = {
          id: Crypto.randomUUID(),
          key: connector.definition.info.key,
          version: connector.definition.info.version,
          owner_project_id: projectId,
          ...rowFor(connector),
          changelog: extra.changelog,
          mcp_server_url: extra.mcp?.url ?? null,
          mcp_auth: extra.mcp?.auth ?? null
        }
        const stored = yield* repo.insert(row)
        return { ...stored, owner: ownerOf(stored) } satisfies VisibleVersion
      })

    /** Registers a connector generated for an MCP server; its key must be new in the project. */
    const registerMcp = (
      projectId: string,
      definition: unknown,
      mcp: { readonly url: string; readonly auth: "none" | "token" | "oauth" }
    ) =>
      Effect.gen(function*() {
        const connector = yield* parse(canonicalJson(definition))
        const key = connector.definition.info.key
        return yield* Effect.gen(function*() {
          yield* repo.lockKey(projectId, key)
          const own = (yield* visible(projectId, [key])).filter((row) => row.owner === "custom")
          if (own.length > 0) {
            return yield* new ConnectorConflict({
              message: `A custom connector with key ${key} already exists; choose another title`
            })
          }
          return yield* insertVersion(projectId, connector, { changelog: null, mcp })
        }).pipe(repo.withTransaction, Effect.catchTag("SqlError", Effect.die))
      })

    /**
     * Loads the shipped built-in connectors: a version already stored with the same content is
     * kept; the same version with different content stops the start (versions are immutable).
     * A kept version whose `info.verification` (outside the content hash) was declared or
     * corrected since it was stored gets the shipped file's, so the API reports what ships.
     */
    const registerBuiltins = (sources: ReadonlyArray<BuiltinConnectorSource>) =>
      Effect.gen(function*() {
        const stored = yield* repo.builtinVersions
        const storedVerifications = yield* repo.builtinVerifications
        let added = 0
        const definitions: Array<ParsedConnector["definition"]> = []
        for (const source of sources) {
          const result = parseConnector(source.yaml)
          if (Either.isLeft(result)) {
            return yield* Effect.die(new Error(`built-in connector ${source.file} is invalid: ${result.left.message}`))
          }
          const connector = result.right
          definitions.push(connector.definition)
          const { key, version } = connector.definition.info
          if (source.changelog.version !== version) {
            return yield* Effect.die(new Error(`built-in connector ${source.file}: changelog is for ${source.changelog.version}, file is ${version}`))
          }
          const existing = stored.find((row) => row.key === key && row.version === version)
          if (existing !== undefined) {
            if (existing.content_hash !== connector.contentHash) {
              return yield* Effect.die(new Error(`built-in connector ${key}@${version} differs from the stored one; publish a new version instead of editing ${source.file}`))
            }
            const shipped = JSON.parse(connector.canonical) as { readonly info: { readonly verification?: unknown } }
            const was = storedVerifications.get(existing.id) ?? null
            if (canonicalJson(was) !== canonicalJson(shipped.info.verification ?? null)) {
              yield* repo.refreshDefinition(existing.id, existing.content_hash, shipped)
              yield* Effect.logInfo(`built-in connector ${key}@${version}: stored verification updated from ${source.file}`)
            }
            continue
          }
          yield* Effect.gen(function*() {
            yield* repo.lockKey("builtin", key)
            const again = (yield* repo.builtinVersions).find((row) => row.key === key && row.version === version)
            if (again === undefined) yield* insertVersion(null, connector, { changelog: source.changelog, mcp: null })
          }).pipe(repo.withTransaction, Effect.orDie)
          added++
        }
        return { added, definitions } as const
      })

    return {
      visible,
      resolve,
      profileCandidates,
      load,
      registerYaml,
      registerMcp,
      registerBuiltins
    } as const
  }),
  dependencies: [ConnectorsRepo.Default, ProjectsRepo.Default, ConnectorParser.Default]
}) {}

export const categoriesOf = (connector: ParsedConnector): ReadonlyArray<string> => {
  const info = connector.definition.info
  const listed = info.categories ?? (info.category === undefined ? [] : [info.category])
  return [...new Set(listed)]
}
