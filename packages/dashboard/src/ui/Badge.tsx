/** Tones for statuses: words carry the meaning, the colour only repeats it. */
const tones: Record<string, string> = {
  active: "good",
  success: "good",
  succeeded: "good",
  delivered: "good",
  enabled: "good",
  pending: "neutral",
  retrying: "warn",
  inactive: "neutral",
  disabled: "neutral",
  suspended: "warn",
  expired: "warn",
  error: "bad",
  failed: "bad",
  revoked: "neutral"
}

export const Badge = ({ label, tone }: { label: string; tone?: "good" | "warn" | "bad" | "neutral" }) => (
  <span class={`badge badge-${tone ?? tones[label.toLowerCase()] ?? "neutral"}`}>{label}</span>
)

/** An HTTP status as a badge: 2xx good, 4xx warn, 5xx bad. */
export const StatusCodeBadge = ({ status }: { status: number }) => (
  <Badge label={String(status)} tone={status >= 500 ? "bad" : status >= 400 ? "warn" : status >= 200 && status < 300 ? "good" : "neutral"} />
)
