import * as Crypto from "node:crypto"

/**
 * Standard Webhooks signing (standardwebhooks.com): secrets are `whsec_<base64 of the key>`,
 * and `webhook-signature` carries `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for every
 * secret in use, space-separated (during a rotation, the new one and the previous one).
 */

const PREFIX = "whsec_"

/** A fresh signing secret: 32 random bytes, as receivers' libraries expect it. */
export const newWebhookSecret = (): string => `${PREFIX}${Crypto.randomBytes(32).toString("base64")}`

const keyOf = (secret: string) => Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64")

/** One `v1,<signature>` per secret, space-separated. */
export const webhookSignature = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestampSeconds: number,
  body: string
): string =>
  secrets
    .map((secret) =>
      `v1,${Crypto.createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`
    )
    .join(" ")
