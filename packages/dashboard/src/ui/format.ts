import type { ApiKeyScope } from "@switchyard/api"

/** A key scope as the spec names it. */
export const scopeLabels: Record<ApiKeyScope, string> = {
  full_access: "Full Access",
  read_only: "Read Only",
  accounts: "Accounts",
  actions: "Actions"
}

/** A timestamp as people read it, in the browser's zone; "never" for none. */
export const formatTime = (iso: string | null | undefined): string => {
  if (iso === null || iso === undefined || iso === "") return "never"
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" })
}

export const formatDuration = (ms: number | null | undefined): string =>
  ms === null || ms === undefined ? "–" : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`

export const formatCount = (n: number): string => n.toLocaleString()

export const formatPercent = (part: number, whole: number): string =>
  whole === 0 ? "–" : `${((part / whole) * 100).toFixed(part === 0 || part === whole ? 0 : 1)}%`
