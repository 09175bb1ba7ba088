// Creates or drops one PostgreSQL database (CI runs each on a fresh one).
// Usage: node ci-database.mjs create|drop <admin-url> <name>
import { createRequire } from "node:module"

const require = createRequire(import.meta.resolve("@effect/sql-pg"))
const { Client } = require("pg")

const [action, adminUrl, name] = process.argv.slice(2)
if (!["create", "drop"].includes(action) || !adminUrl || !/^[a-z0-9_]+$/.test(name ?? "")) {
  console.error("usage: node ci-database.mjs create|drop <admin-url> <name>")
  process.exit(2)
}
const client = new Client({ connectionString: adminUrl })
await client.connect()
try {
  await client.query(action === "create" ? `CREATE DATABASE ${name}` : `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
} finally {
  await client.end()
}
