import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"
import { href, navigate } from "../router.js"

/*
 * A list's filters live in the URL's query (`#/accounts?status=error`): a filtered view is a
 * link to share or reload. The form edits a copy and applying it navigates, which reloads the
 * list; the page's own paging parameters (page, next) are left behind, as a new filter starts
 * at the first page.
 */

export interface Option {
  readonly value: string
  readonly label: string
}

/** The filters named `names` as the query carries them, "" when absent. */
export const filtersOf = <N extends string>(names: ReadonlyArray<N>, query: URLSearchParams): Record<N, string> =>
  Object.fromEntries(names.map((name) => [name, query.get(name) ?? ""])) as Record<N, string>

export const anyFilterSet = (filters: Readonly<Record<string, string>>) => Object.values(filters).some((value) => value !== "")

/** The form's values, a setter per field, and the submit that applies them to the URL. */
export const useFilterValues = <F extends Record<string, string>>(path: string, filters: F) => {
  const [values, setValues] = useState(filters)
  const set = (name: keyof F) => (event: { currentTarget: { value: string } }) => setValues({ ...values, [name]: event.currentTarget.value })
  const submit = (event: Event) => {
    event.preventDefault()
    navigate(href(path, values))
  }
  return { values, set, submit }
}

/**
 * The filter form: its fields, a Filter button, a link clearing them when some are set, and
 * `more` (the less used fields) behind a disclosure, open when one of them is set.
 */
export const FilterForm = (
  { label, path, active, onSubmit, children, more, moreActive = false }: {
    label: string
    path: string
    active: boolean
    onSubmit: (event: Event) => void
    children: ComponentChildren
    more?: ComponentChildren
    moreActive?: boolean
  }
) => (
  <form class="filters" role="search" aria-label={label} onSubmit={onSubmit}>
    {children}
    <button type="submit">Filter</button>
    {active ? <a href={href(path)}>Clear filters</a> : null}
    {more === undefined ? null : (
      <details open={moreActive}>
        <summary>More filters</summary>
        <div class="more">{more}</div>
      </details>
    )}
  </form>
)

/** The options, with the URL's current value kept even when no option has it (a deleted account, a list). */
const withCurrent = (options: ReadonlyArray<Option>, current: string): ReadonlyArray<Option> =>
  current === "" || options.some((option) => option.value === current) ? options : [{ value: current, label: current }, ...options]

/** A labelled select whose first option, `any` (""), means no filter. */
export const SelectFilter = (
  { id, label, any, value, current, options, onChange }: {
    id: string
    label: string
    any: string
    value: string
    /** The value the URL holds now. */
    current: string
    options: ReadonlyArray<Option> | undefined
    onChange: (event: { currentTarget: { value: string } }) => void
  }
) => (
  <div class="field">
    <label for={id}>{label}</label>
    <select id={id} value={value} onChange={onChange}>
      <option value="">{any}</option>
      {withCurrent(options ?? [], current).map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
    </select>
  </div>
)

/** A labelled text field (search, date and time, …). */
export const TextFilter = (
  { id, label, value, onInput, type = "text", placeholder, narrow = false, step, inputMode }: {
    id: string
    label: string
    value: string
    onInput: (event: { currentTarget: { value: string } }) => void
    type?: "text" | "search" | "datetime-local"
    placeholder?: string
    narrow?: boolean
    step?: number
    inputMode?: "numeric"
  }
) => (
  <div class="field">
    <label for={id}>{label}</label>
    {/* Preact types <input> as a union over `type`, which a union-valued `type` cannot be checked against */}
    <input id={id} type={type as "text"} class={narrow ? "narrow" : undefined} value={value} placeholder={placeholder} step={step}
      inputMode={inputMode} onInput={onInput} />
  </div>
)
