/*
 * A fresh PostgreSQL database for one benchmark run, created and dropped with the same script CI
 * uses (scripts/ci-database.mjs), so a PostgreSQL server starts as empty as the embedded default.
 */
import { join } from "node:path"
import { atCleanup, completed, spawnChild } from "./processes.js"
import { serverDir } from "./switchyard.js"

export interface BenchDatabase {
  /** DATABASE_URL of the new database (credentials as in the admin URL). */
  readonly url: string
  drop(): Promise<void>
}

const ciDatabase = (action: "create" | "drop", adminUrl: string, name: string) =>
  completed(spawnChild(`ci-database ${action} ${name}`, process.execPath, [join(serverDir, "scripts/ci-database.mjs"), action, adminUrl, name], {
    cwd: serverDir,
    env: process.env
  }))

export const createBenchDatabase = async (adminUrl: string): Promise<BenchDatabase> => {
  const name = `switchyard_bench_${process.pid}_${Date.now()}`
  await ciDatabase("create", adminUrl, name)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  // Dropped also when the run fails or is interrupted (after the server using it has stopped).
  const drop = async () => {
    forget()
    await ciDatabase("drop", adminUrl, name)
  }
  const forget = atCleanup(drop)
  return { url: url.toString(), drop }
}

/** The admin URL without its password, for printing. */
export const printableUrl = (databaseUrl: string) => {
  const url = new URL(databaseUrl)
  if (url.password !== "") url.password = "***"
  return url.toString()
}
