import { Schema } from "effect"
import { optionalNullable } from "../common/recordFields.js"
import { knownValues } from "./knownValues.js"

/* How to reach a candidate: emails, phone numbers and social links (candidates and applications). */

export const CandidateEmail = Schema.Struct({
  type: optionalNullable(Schema.String),
  value: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsCandidateEmail" })

export const PhoneNumber = Schema.Struct({
  type: optionalNullable(knownValues(["personal", "work", "mobile", "home", "unknown", "other", "unmapped_value"])),
  phone: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsPhoneNumber" })

export const SocialLink = Schema.Struct({
  type: optionalNullable(Schema.String),
  url: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsSocialLink" })
