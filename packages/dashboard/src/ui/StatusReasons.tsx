import type { Account } from "@switchyard/api"
import { formatTime } from "./format.js"

/**
 * Why an account has its status (an expired token, a suspension…), as the server recorded it.
 * `compact` (in a list) shows the descriptions only; the account's page shows code and time too.
 */
export const StatusReasons = ({ reasons, compact = false }: { reasons: Account["status_reasons"]; compact?: boolean }) =>
  reasons.length === 0 ? null : (
    <ul class={compact ? "reasons compact" : "reasons"}>
      {reasons.map((reason, index) => (
        <li key={`${reason.code}-${index}`}>
          {reason.description === "" ? <code>{reason.code}</code> : reason.description}
          {compact ? null : <span class="muted"> · <code>{reason.code}</code> · {formatTime(reason.timestamp)}</span>}
        </li>
      ))}
    </ul>
  )
