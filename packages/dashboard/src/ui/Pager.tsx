import type { CursorPages } from "./useCursorPages.js"

/**
 * Buttons between the pages of a keyset list, hidden when everything fits on one page. The
 * words follow the list's order: "Newer"/"Older" for newest-first lists.
 */
export const Pager = (
  { pages, next, label, previousLabel = "Previous", nextLabel = "Next" }: {
    pages: CursorPages
    next: string | null
    label: string
    previousLabel?: string
    nextLabel?: string
  }
) =>
  pages.number === 1 && next === null ? null : (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={pages.number === 1} onClick={pages.back}>← {previousLabel}</button>
      <span class="muted">Page {pages.number}</span>
      <button type="button" disabled={next === null} onClick={() => next !== null && pages.forward(next)}>{nextLabel} →</button>
    </nav>
  )
