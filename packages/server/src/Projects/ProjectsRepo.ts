import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import * as Crypto from "node:crypto"

export interface Organization {
  readonly id: string
  readonly name: string
  readonly created_at: Date
}

export interface Project {
  readonly id: string
  readonly organization_id: string
  readonly name: string
  /** Whether a connector version, once registered, can never change (the default). */
  readonly immutable_versioning: boolean
  readonly created_at: Date
}

/** Organizations own projects; everything else belongs to a project. */
export class ProjectsRepo extends Effect.Service<ProjectsRepo>()("Switchyard/ProjectsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const createOrganization = (name: string) =>
      sql<Organization>`
        INSERT INTO organizations ${sql.insert({ id: Crypto.randomUUID(), name })}
        RETURNING id, name, created_at`.pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

    const createProject = (organizationId: string, name: string) =>
      sql<Project>`
        INSERT INTO projects ${sql.insert({ id: Crypto.randomUUID(), organization_id: organizationId, name })}
        RETURNING id, organization_id, name, immutable_versioning, created_at`.pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

    const listOrganizations = sql<Organization>`
      SELECT id, name, created_at FROM organizations ORDER BY created_at, id`.pipe(Effect.orDie)

    const listProjects = sql<Project>`
      SELECT id, organization_id, name, immutable_versioning, created_at FROM projects ORDER BY created_at, id`.pipe(Effect.orDie)

    const findProject = (id: string) =>
      sql<Project>`
        SELECT id, organization_id, name, immutable_versioning, created_at FROM projects WHERE id::text = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    const findOrganization = (id: string) =>
      sql<Organization>`SELECT id, name, created_at FROM organizations WHERE id::text = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    const setImmutableVersioning = (id: string, immutable: boolean) =>
      sql<Project>`
        UPDATE projects SET immutable_versioning = ${immutable} WHERE id::text = ${id}
        RETURNING id, organization_id, name, immutable_versioning, created_at`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    return {
      setImmutableVersioning,
      createOrganization,
      createProject,
      listOrganizations,
      listProjects,
      findProject,
      findOrganization,
      withTransaction: sql.withTransaction
    } as const
  })
}) {}
