import { Schema } from "effect"
import { fieldsParam, RawParam, UpdatedAfterFilter } from "../common/queryParams.js"
import { unifiedQuery } from "../common/unifiedQuery.js"

/* Query pieces the ATS record modules share; not re-exported from Ats.ts. */

export const withFields = (names: ReadonlyArray<string>) => ({ fields: Schema.optional(fieldsParam(names)) })
export const getQuery = (names: ReadonlyArray<string>) =>
  unifiedQuery({ params: { raw: Schema.optional(RawParam), ...withFields(names) } })

export const updatedAfterOnly = { updated_after: UpdatedAfterFilter }
