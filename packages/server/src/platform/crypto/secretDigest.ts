import * as Crypto from "node:crypto"

/**
 * How bearer secrets we issue (API keys, connect-session tokens) are stored: their SHA-256
 * only. They are 256-bit random values, so a plain hash is enough to look them up and a
 * leaked table opens nothing.
 */
export const secretDigest = (secret: string): string => Crypto.createHash("sha256").update(secret, "utf8").digest("hex")
