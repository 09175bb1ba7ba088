import { snakeName } from "./names.js"

/** camelCase, the form of the connector format's configuration keys (`companyDomain`). */
export const camelName = (text: string, fallback: string): string => {
  const words = snakeName(text).split("_").filter((word) => word !== "")
  if (words.length === 0) return fallback
  const [first, ...rest] = words
  const name = first! + rest.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("")
  return /^[a-z]/.test(name) ? name : `${fallback}${name[0]!.toUpperCase()}${name.slice(1)}`
}

/** Words for a label: `companyDomain` → `Company domain`. */
export const labelOf = (text: string): string => {
  const words = snakeName(text).split("_").filter((word) => word !== "")
  if (words.length === 0) return text
  const joined = words.join(" ")
  return joined[0]!.toUpperCase() + joined.slice(1)
}
