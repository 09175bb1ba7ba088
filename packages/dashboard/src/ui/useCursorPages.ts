import { useState } from "preact/hooks"

/**
 * Where a keyset list is: the cursor of each page visited so far, so "Newer" goes back to the
 * page before without the server keeping anything (its `next` cursors only go forward).
 * `reset` returns to the first page, e.g. when a filter changes.
 */
export const useCursorPages = () => {
  const [cursors, setCursors] = useState<ReadonlyArray<string>>([])
  return {
    /** The cursor of the page shown: undefined on the first page. */
    cursor: cursors[cursors.length - 1],
    /** 1 for the first page. */
    number: cursors.length + 1,
    forward: (next: string) => setCursors((visited) => [...visited, next]),
    back: () => setCursors((visited) => visited.slice(0, -1)),
    reset: () => setCursors([])
  }
}

export type CursorPages = ReturnType<typeof useCursorPages>
