import type { ComponentChildren } from "preact"
import { useEffect, useRef, useState } from "preact/hooks"

let dialogs = 0

/**
 * A modal question before something that cannot be undone, as a native <dialog>: the browser
 * traps focus inside it, Escape cancels, and focus returns to the button that opened it.
 */
export const Confirm = (
  { open, title, confirmLabel, busy = false, onConfirm, onCancel, children }: {
    open: boolean
    title: string
    confirmLabel: string
    busy?: boolean
    onConfirm: () => void
    onCancel: () => void
    children?: ComponentChildren
  }
) => {
  const dialog = useRef<HTMLDialogElement>(null)
  // its own id: a view with two confirmations (rotate, delete) must not name both after one title
  const [titleId] = useState(() => `confirm-title-${++dialogs}`)
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onCancel={(event) => {
      event.preventDefault()
      onCancel()
    }}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>{confirmLabel}</button>
        <button type="button" disabled={busy} onClick={onCancel}>Cancel</button>
      </div>
    </dialog>
  )
}
