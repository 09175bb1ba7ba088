import { Data } from "effect"

/** A document the builder will not draft from, with the reason in words a user can act on. */
export class DraftRefusal extends Data.TaggedError("DraftRefusal")<{ readonly message: string }> {}
