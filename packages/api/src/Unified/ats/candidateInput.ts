import { Schema } from "effect"
import {
  CustomField,
  DateTimeInput,
  optionalNullable,
  Passthrough,
  UnifiedCustomFields
} from "../common/recordFields.js"
import { PhoneNumber, SocialLink } from "./candidateContacts.js"

/*
 * The candidate fields of a write body: a candidate created on its own or with an
 * application. Not re-exported from Ats.ts.
 */

export const candidateInputFields = {
  passthrough: optionalNullable(Passthrough),
  unified_custom_fields: optionalNullable(UnifiedCustomFields),
  phone_number: optionalNullable(Schema.String).annotations({ description: "Deprecated: use phone_numbers" }),
  phone_numbers: optionalNullable(Schema.Array(PhoneNumber)),
  name: optionalNullable(Schema.String),
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String),
  social_links: optionalNullable(Schema.Array(SocialLink)),
  company: optionalNullable(Schema.String),
  title: optionalNullable(Schema.String),
  hired_at: optionalNullable(DateTimeInput),
  country: optionalNullable(Schema.String),
  custom_fields: optionalNullable(Schema.Array(CustomField))
}
