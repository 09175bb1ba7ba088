import { useState } from "preact/hooks"

let fields = 0

/** A value to copy (a key shown once, a connect link): selectable text and a Copy button. */
export const CopyField = ({ label, value, note }: { label: string; value: string; note?: string }) => {
  const [id] = useState(() => `copy-${++fields}`)
  const [copied, setCopied] = useState(false)
  const copy = () =>
    navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false))
  return (
    <div class="copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} type="text" readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={copy}>{copied ? "Copied" : "Copy"}</button>
      </div>
      {note === undefined ? null : <p class="muted">{note}</p>}
    </div>
  )
}
