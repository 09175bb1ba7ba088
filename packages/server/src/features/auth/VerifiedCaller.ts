import type { Caller } from "@switchyard/api"
import { FiberRef, Option } from "effect"

/**
 * The caller the request guards already authenticated for the request under way (they check
 * the key before reading anything else): the Authentication middleware takes it from here
 * instead of hashing and looking up the same key a second time. Set only around one
 * request's handling (`Effect.locally`), so it never outlives it.
 */
export const verifiedCaller: FiberRef.FiberRef<Option.Option<Caller>> = FiberRef.unsafeMake<Option.Option<Caller>>(
  Option.none()
)
