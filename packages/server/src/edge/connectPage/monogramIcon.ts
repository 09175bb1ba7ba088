import * as Crypto from "node:crypto"
import { escapeHtml } from "./htmlDocument.js"

/** Up to two letters: the initials of the first two words of `name`, else its first letter. */
export const monogramLetters = (name: string) => {
  const words = name.split(/[\s_\-.]+/u).map((word) => [...word].filter((c) => /[\p{L}\p{N}]/u.test(c)).join(""))
    .filter((word) => word.length > 0)
  const letters = words.length >= 2 ? [...words[0]!][0]! + [...words[1]!][0]! : [...(words[0] ?? "?")][0]!
  return letters.toLocaleUpperCase("en")
}

const hslToHex = (hue: number, saturation: number, lightness: number) => {
  const a = saturation * Math.min(lightness, 1 - lightness)
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))
    return Math.round(value * 255).toString(16).padStart(2, "0")
  }
  return `#${channel(0)}${channel(8)}${channel(4)}`
}

/**
 * The background for a connector: a hue from a digest of its key (the same key, the same
 * colour on every server), dark enough for white letters (at least 3:1, large text).
 */
export const monogramColour = (key: string) => {
  const hue = Crypto.createHash("sha256").update(key).digest().readUInt16BE(0) % 360
  return hslToHex(hue, 0.55, 0.32)
}

/**
 * A connector's icon drawn here, never fetched from the provider: the page makes no request
 * to a third party and works on a private network.
 */
export const monogramIcon = (key: string, name: string) => {
  const letters = escapeHtml(monogramLetters(name))
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${letters}">` +
    `<rect width="64" height="64" rx="14" fill="${monogramColour(key)}"/>` +
    `<text x="32" y="32" dy="0.35em" text-anchor="middle" fill="#ffffff" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" ` +
    `font-size="${letters.length > 1 ? 24 : 30}" font-weight="600">${letters}</text></svg>\n`
}
