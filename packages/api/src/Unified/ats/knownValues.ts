import { Schema } from "effect"

/* Used by the ATS modules only; not re-exported from Ats.ts. */

/** A plain string documented with its known values (not enforced). */
export const knownValues = (values: ReadonlyArray<string>) =>
  Schema.String.annotations({ description: `Known values: ${values.join(", ")}` })
