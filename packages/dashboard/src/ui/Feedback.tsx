import type { ComponentChildren } from "preact"
import { messageOf } from "../api.js"
import type { Load } from "./useLoad.js"

/** A failure in words, announced to screen readers. */
export const ErrorNote = ({ error, title = "That did not work" }: { error: unknown; title?: string }) => (
  <div class="error-note" role="alert">
    <strong>{title}.</strong> {messageOf(error)}
  </div>
)

export const Loading = ({ what }: { what: string }) => <p class="muted" role="status">Loading {what}…</p>

/** What an empty list means and what to do about it. */
export const Empty = ({ title, children }: { title: string; children?: ComponentChildren }) => (
  <div class="empty">
    <p class="empty-title">{title}</p>
    {children === undefined ? null : <p class="muted">{children}</p>}
  </div>
)

/** Renders a load: its loading line, its failure, or `children` with the data. */
export const Loaded = <A,>(
  { load, what, children }: { load: Load<A>; what: string; children: (data: A) => ComponentChildren }
) =>
  load.state === "loading"
    ? <Loading what={what} />
    : load.state === "failed"
    ? <ErrorNote error={load.error} title={`Could not load ${what}`} />
    : <>{children(load.data)}</>
