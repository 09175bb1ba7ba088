import { SqlClient, SqlSchema, Statement } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { PageWindow } from "./Pagination.js"

const ListRequest = Schema.Struct({
  where: Schema.declare(Statement.isFragment),
  window: Schema.OptionFromSelf(PageWindow)
})

/**
 * The two reads of a platform list: its rows in creation order (one page, or all of them
 * without a window) and how many match in all. Rows that do not decode are defects.
 */
export const listPage = <A, I>(table: string, columns: Statement.Fragment, Row: Schema.Schema<A, I>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = SqlSchema.findAll({
      Request: ListRequest,
      Result: Row,
      execute: ({ where, window }) =>
        sql`
          SELECT ${columns} FROM ${sql(table)} WHERE ${where}
          ORDER BY created_at, id
          ${Option.isSome(window) ? sql`LIMIT ${window.value.limit} OFFSET ${window.value.offset}` : sql``}`
    })
    const count = SqlSchema.single({
      Request: ListRequest.pick("where"),
      Result: Schema.Struct({ total: Schema.Number }),
      execute: ({ where }) => sql`SELECT count(*)::int AS total FROM ${sql(table)} WHERE ${where}`
    })
    return (where: Statement.Fragment, window: Option.Option<PageWindow>) =>
      Effect.all([rows({ where, window }), count({ where })], { concurrency: 2 }).pipe(
        Effect.map(([rows, count]) => ({ rows, total: count.total })),
        Effect.orDie
      )
  })
