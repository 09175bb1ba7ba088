import { PGlite } from "@electric-sql/pglite"

/*
 * How the embedded database is started, shared by the process that creates it
 * (EmbeddedPostgresInit.ts) and the thread that serves it (EmbeddedPostgresWorker.ts).
 */

/**
 * PostgreSQL sized for one small server, where initdb would size it for a machine:
 * PGlite is a single backend behind a socket server that runs one statement at a time, so
 * shared buffers (written in full at start, 128 MB by default) and the per-connection
 * shared memory (100 connections by default) are mostly never used. In memory the WAL is
 * memory too: 1 MB segments (16 MB by default, each held whole), a checkpoint every
 * 32 MB of WAL and at most 4 MB of segments kept for reuse.
 */
const settings = (inMemory: boolean): ReadonlyArray<string> => [
  "shared_buffers=16MB",
  "max_connections=10",
  "maintenance_work_mem=16MB",
  ...(inMemory ? ["min_wal_size=4MB", "max_wal_size=32MB"] : [])
]

export const initDbStartParams = (inMemory: boolean) => inMemory ? ["--wal-segsize=1"] : []

export const startParams = (inMemory: boolean) => [
  ...PGlite.defaultStartParams,
  ...settings(inMemory).flatMap((setting) => ["-c", setting])
]

/** PostgreSQL's last words on stderr: why it would not start is said there, not in PGlite's error. */
export const stderrTail = () => {
  const lines: Array<string> = []
  return {
    onStderr: (line: string) => {
      if (line.trim() !== "") lines.push(line.trim())
      if (lines.length > 5) lines.shift()
      return false
    },
    messageOf: (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      return lines.length === 0 ? message : `${message} (${lines.join("; ")})`
    }
  }
}
