import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/* The headers every unified operation takes, and its path parameters. */

/** Headers of every unified operation (lowercase keys). */
export const UnifiedHeaders = Schema.Struct({
  "x-account-id": Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
    description: "The linked account the call runs against",
    jsonSchema: { type: "string", minLength: 1, maxLength: 200 }
  }),
  prefer: Schema.optional(Schema.String).annotations({
    description:
      "RFC 7240. `heartbeat` sends newline keep-alives while a long request runs; the response then carries `Preference-Applied: heartbeat`"
  })
})
export type UnifiedHeaders = typeof UnifiedHeaders.Type

export const RecordId = HttpApiSchema.param("id", Schema.String)
export const SubResourceId = HttpApiSchema.param("subResourceId", Schema.String)
