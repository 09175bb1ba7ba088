import { expect } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { Json } from "./SandboxLayer.js"

/** A page of a list: its records and the cursor of the page after it, if there is one. */
export interface ListPage {
  readonly data?: unknown
  readonly next?: unknown
}

export interface WalkOptions {
  /** Each page is checked against this list schema, excess properties refused. */
  readonly schema?: Schema.Schema<any, any>
  /** At most this many pages: a list still offering a next page after them fails. */
  readonly most?: number
}

/**
 * Every record of a list, page after page: `page` is asked for the first page with no cursor,
 * then for each following one with the previous page's `next`, until a page has none
 * (undefined, null or ""). Shared by the unified lists (`next` in the query) and the action
 * RPC (`cursor`), so `page` says where the cursor goes. A `next` seen before fails the walk
 * rather than loop for ever, as does a `next` that is not text.
 */
export const walkPages = <E, R>(
  page: (next: string | undefined) => Effect.Effect<ListPage, E, R>,
  options: WalkOptions = {}
) =>
  Effect.gen(function*() {
    const decode = options.schema === undefined ? undefined : Schema.decodeUnknownSync(options.schema, { onExcessProperty: "error" })
    const records: Array<Json> = []
    const cursors: Array<string> = []
    for (;;) {
      const answer = yield* page(cursors.at(-1))
      decode?.(answer)
      records.push(...(answer.data as ReadonlyArray<Json>))
      const next = answer.next
      if (next === undefined || next === null || next === "") return { records, pages: cursors.length + 1 }
      expect(typeof next, "a page's next is a cursor").toBe("string")
      expect(cursors, "a next page seen before").not.toContain(next)
      if (options.most !== undefined) expect(cursors.length + 1, `still a next page after ${options.most}`).toBeLessThan(options.most)
      cursors.push(next as string)
    }
  })
