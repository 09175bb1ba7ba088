import { useEffect, useRef, useState } from "preact/hooks"

/**
 * A form opened by a button that gives way to it (Upload, Create): when the form closes, focus
 * goes back to the button, which would otherwise be lost to the page's start for keyboard users.
 * The form focuses its own heading when it opens (see `useFocusOnMount`).
 */
export const useDisclosure = () => {
  const [open, setOpen] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const wasOpen = useRef(false)
  useEffect(() => {
    if (!open && wasOpen.current) opener.current?.focus()
    wasOpen.current = open
  }, [open])
  return { open, show: () => setOpen(true), hide: () => setOpen(false), opener }
}

/** Focuses the element (a form's heading, tabIndex -1) once, when it first renders. */
export const useFocusOnMount = <E extends HTMLElement>() => {
  const element = useRef<E>(null)
  useEffect(() => element.current?.focus(), [])
  return element
}
