import { withoutAccents } from "./names.js"

/** Words that say nothing of which provider a title names. */
const GENERIC_WORDS = new Set(["api", "apis", "rest", "public", "openapi", "swagger", "reference", "documentation", "docs", "specification", "spec", "the", "v1", "v2", "v3", "v4", "v5"])

/** A connector key: the title's words (`Deel REST API` → `deel`), else the servers' host (`api.rippling.com` → `rippling`). */
export const connectorKeyFor = (title: string, serverUrl: string | undefined): string => {
  const words = withoutAccents(title).toLowerCase().replace(/[^a-z0-9]+/g, " ").trim().split(" ")
    .filter((word) => word !== "" && !GENERIC_WORDS.has(word))
  const fromTitle = words.join("-").slice(0, 100).replace(/-+$/, "")
  if (fromTitle !== "") return fromTitle
  const host = serverUrl?.match(/^[a-z][a-z0-9+.-]*:\/\/([^/:?#]+)/i)?.[1]?.toLowerCase()
  const labels = (host ?? "").split(".").filter((label) => label !== "" && !/^(api|www|app|rest|\$\{.*)$/.test(label) && !label.includes("{"))
  const name = labels.length >= 2 ? labels[labels.length - 2]! : labels[0]
  return name !== undefined && /^[a-z0-9-]+$/.test(name) ? name : "connector"
}
