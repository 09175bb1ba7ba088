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
  // what had the focus before the dialog opened (the button that opened it), given it back on
  // close: not every browser restores it, and a keyboard user would be left at the page's top
  const opener = useRef<HTMLElement | null>(null)
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
      element.showModal()
    }
    if (!open && element.open) {
      element.close()
      if (opener.current?.isConnected === true) opener.current.focus()
      opener.current = null
    }
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
