import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Crypto from "node:crypto"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"

export const Organization = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  created_at: Schema.DateFromSelf
})
export type Organization = typeof Organization.Type

export const Project = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  name: Schema.String,
  /** Whether a connector version, once registered, can never change (the default). */
  immutable_versioning: Schema.Boolean,
  /** Whether the request log keeps provider request and response bodies (redacted, capped). */
  request_log_bodies: Schema.Boolean,
  /** Origins that may embed the hosted connect page in a frame (CSP frame-ancestors); none by default. */
  connect_frame_origins: Schema.Array(Schema.String),
  created_at: Schema.DateFromSelf
})
export type Project = typeof Project.Type

/** Organizations own projects; everything else belongs to a project. */
export class ProjectsRepo extends Effect.Service<ProjectsRepo>()("Switchyard/ProjectsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const epochs = yield* CacheEpochs

    const organizationColumns = sql`id, name, created_at`
    const projectColumns = sql`id, organization_id, name, immutable_versioning, request_log_bodies, connect_frame_origins, created_at`

    const createOrganization = SqlSchema.single({
      Request: Schema.String,
      Result: Organization,
      execute: (name) =>
        sql`INSERT INTO organizations ${sql.insert({ id: Crypto.randomUUID(), name })} RETURNING ${organizationColumns}`
    })

    const createProject = SqlSchema.single({
      Request: Schema.Struct({ organizationId: Schema.String, name: Schema.String }),
      Result: Project,
      execute: ({ name, organizationId }) =>
        sql`
          INSERT INTO projects ${sql.insert({ id: Crypto.randomUUID(), organization_id: organizationId, name })}
          RETURNING ${projectColumns}`
    })

    const listOrganizations = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Organization,
      execute: () => sql`SELECT ${organizationColumns} FROM organizations ORDER BY created_at, id`
    })

    const listProjects = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Project,
      execute: () => sql`SELECT ${projectColumns} FROM projects ORDER BY created_at, id`
    })

    const findProject = SqlSchema.findOne({
      Request: Schema.String,
      Result: Project,
      execute: (id) => sql`SELECT ${projectColumns} FROM projects WHERE id::text = ${id}`
    })

    const findOrganization = SqlSchema.findOne({
      Request: Schema.String,
      Result: Organization,
      execute: (id) => sql`SELECT ${organizationColumns} FROM organizations WHERE id::text = ${id}`
    })

    const setImmutableVersioning = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, immutable: Schema.Boolean }),
      Result: Project,
      execute: ({ id, immutable }) =>
        sql`
          UPDATE projects SET immutable_versioning = ${immutable} WHERE id::text = ${id}
          RETURNING ${projectColumns}`
    })

    const setRequestLogBodies = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, enabled: Schema.Boolean }),
      Result: Project,
      execute: ({ enabled, id }) =>
        sql`
          UPDATE projects SET request_log_bodies = ${enabled} WHERE id::text = ${id}
          RETURNING ${projectColumns}`
    })

    const setConnectFrameOrigins = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, origins: Schema.Array(Schema.String) }),
      Result: Project,
      execute: ({ id, origins }) =>
        sql`
          UPDATE projects SET connect_frame_origins = ${JSON.stringify(origins)}::jsonb WHERE id::text = ${id}
          RETURNING ${projectColumns}`
    })

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      setImmutableVersioning: (id: string, immutable: boolean) =>
        setImmutableVersioning({ id, immutable }).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      // account contexts carry the setting, so they are rebuilt everywhere once it changes
      setRequestLogBodies: (id: string, enabled: boolean) =>
        setRequestLogBodies({ id, enabled }).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      /** Replaces the origins allowed to frame the connect page (already normalized origins). */
      setConnectFrameOrigins: (id: string, origins: ReadonlyArray<string>) =>
        setConnectFrameOrigins({ id, origins }).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      createOrganization: (name: string) => createOrganization(name).pipe(Effect.orDie),
      createProject: (organizationId: string, name: string) =>
        createProject({ organizationId, name }).pipe(Effect.orDie),
      listOrganizations: listOrganizations(undefined).pipe(Effect.orDie),
      listProjects: listProjects(undefined).pipe(Effect.orDie),
      findProject: (id: string) => findProject(id).pipe(Effect.orDie),
      findOrganization: (id: string) => findOrganization(id).pipe(Effect.orDie),
      withTransaction: sql.withTransaction
    } as const
  }),
  dependencies: [CacheEpochs.Default]
}) {}
