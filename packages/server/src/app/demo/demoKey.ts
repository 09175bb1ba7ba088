import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"

/**
 * The demo's Full Access key, kept in its data directory (readable by its owner only) so that a
 * second run on the same data finds it: the server registers it at start as
 * SWITCHYARD_BOOTSTRAP_API_KEY (once; later starts find it registered), the documented way to
 * give a server a key chosen in advance. Made like the server's own keys: `swy_` and 256 random bits.
 */
export const demoKey = (dataDir: string): string => {
  const file = Path.join(dataDir, "api-key")
  if (Fs.existsSync(file)) return Fs.readFileSync(file, "utf8").trim()
  const key = `swy_${Crypto.randomBytes(32).toString("base64url")}`
  Fs.mkdirSync(dataDir, { recursive: true })
  Fs.writeFileSync(file, `${key}\n`, { mode: 0o600 })
  return key
}
