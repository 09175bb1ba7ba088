import { PGlite } from "@electric-sql/pglite"
import { initDbStartParams, startParams } from "../../src/platform/database/EmbeddedPostgresSettings.js"

/**
 * A new in-memory PGlite database, set up by `prepare` and archived as PGlite's
 * `dumpDataDir` makes it: what `embeddedPostgres` takes as `memorySnapshot`.
 */
export const archivedDatabase = async (prepare: (db: PGlite) => Promise<void>): Promise<ArrayBuffer> => {
  const db = await PGlite.create("memory://", { initDbStartParams: initDbStartParams(true), startParams: startParams(true) })
  try {
    await prepare(db)
    return await (await db.dumpDataDir("none")).arrayBuffer()
  } finally {
    await db.close()
  }
}
