/** A paginated envelope of a platform list (`{ data, page, page_size, total, next_page }`). */
export interface Envelope<A> {
  readonly data: ReadonlyArray<A>
}

/**
 * The records of a platform list that answers a bare array, or a paginated envelope when
 * `page` or `page_size` is given: `list_accounts`, `list_connectors`, `list_connector_profiles`.
 * Their answer's type is the union of both shapes, which `Array.isArray` does not narrow (its
 * guard is for mutable arrays, the answer's array is readonly), so this does, whichever
 * shape came: `recordsOf(await switchyard.accounts.list_accounts({ urlParams: {} }))`.
 */
export const recordsOf = <A>(answer: ReadonlyArray<A> | Envelope<A>): ReadonlyArray<A> =>
  isBareArray(answer) ? answer : answer.data

const isBareArray = <A>(answer: ReadonlyArray<A> | Envelope<A>): answer is ReadonlyArray<A> => Array.isArray(answer)
