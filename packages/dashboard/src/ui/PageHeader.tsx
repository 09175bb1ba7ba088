import type { ComponentChildren } from "preact"

/**
 * A view's title (focused when the view opens, so it is announced) and its actions; `back`
 * links to the list a detail view belongs to.
 */
export const PageHeader = (
  { title, back, children }: { title: string; back?: { href: string; label: string }; children?: ComponentChildren }
) => (
  <div class="page-header">
    {back === undefined ? null : <a class="back" href={back.href}>← {back.label}</a>}
    <div class="page-title-row">
      <h1 tabIndex={-1}>{title}</h1>
      {children === undefined ? null : <div class="actions">{children}</div>}
    </div>
  </div>
)
