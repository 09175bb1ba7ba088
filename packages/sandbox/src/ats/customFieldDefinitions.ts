import type { FieldChanges } from "./customFields.js"
import { validationError } from "./errors.js"
import type { Body } from "./params.js"

/**
 * The organization's custom field definitions (Harvest's custom field object, GET
 * /v1/custom_fields/{field_type} and /v1/custom_field/{id}): the fields the candidates,
 * applications, jobs and offers of the sandbox carry, keyed by their immutable name_key. Fixed,
 * nothing random; select options have ids of their own, as Harvest's custom_field_options.
 */

export const FIELD_TYPES = ["offer", "candidate", "application", "job", "rejection_question", "referral_question", "user_attribute"] as const
export type FieldType = (typeof FIELD_TYPES)[number]

export interface FieldOptionRec {
  id: number
  name: string
  priority: number
}

export interface FieldDefinitionRec {
  id: number
  name: string
  name_key: string
  field_type: FieldType
  value_type: string
  description: string | null
  priority: number
  required: boolean
  private: boolean
  options: Array<FieldOptionRec>
}

const options = (base: number, names: ReadonlyArray<string>): Array<FieldOptionRec> => names.map((name, index) => ({ id: base + index, name, priority: index }))

const DEFINITIONS: ReadonlyArray<FieldDefinitionRec> = [
  { id: 50001, name: "Desired Salary", name_key: "desired_salary", field_type: "candidate", value_type: "short_text", description: "What the candidate asks for", priority: 0, required: false, private: true, options: [] },
  { id: 50002, name: "Work Remotely", name_key: "work_remotely", field_type: "candidate", value_type: "yes_no", description: null, priority: 1, required: false, private: false, options: [] },
  { id: 50011, name: "Notice Period", name_key: "notice_period", field_type: "application", value_type: "single_select", description: "How soon the candidate can start", priority: 0, required: false, private: false, options: options(51001, ["Immediately", "2 weeks", "1 month", "3 months"]) },
  { id: 50021, name: "Time type", name_key: "employment_type", field_type: "job", value_type: "single_select", description: "Full-time, part-time or contract", priority: 0, required: false, private: false, options: options(51011, ["Full-time", "Part-time", "Contract"]) },
  { id: 50022, name: "Maximum Budget", name_key: "budget", field_type: "job", value_type: "short_text", description: null, priority: 1, required: false, private: true, options: [] },
  { id: 50031, name: "Employment Type", name_key: "employment_type", field_type: "offer", value_type: "single_select", description: null, priority: 0, required: false, private: false, options: options(51021, ["Full-time", "Part-time", "Contractor"]) },
  { id: 50032, name: "Salary", name_key: "salary", field_type: "offer", value_type: "currency", description: null, priority: 1, required: false, private: true, options: [] }
]

/** Fresh records on each call, so a reset starts clean. */
export const fieldDefinitionRecords = (): Map<number, FieldDefinitionRec> =>
  new Map(DEFINITIONS.map((definition) => [definition.id, { ...definition, options: definition.options.map((option) => ({ ...option })) }]))

/** name_key → `{name, type}`, as keyed_custom_fields describe a record's values. */
export const keyedMeta = (definitions: Map<number, FieldDefinitionRec>, fieldType: FieldType): Record<string, { name: string; type: string }> =>
  Object.fromEntries([...definitions.values()].filter((definition) => definition.field_type === fieldType).map((definition) => [definition.name_key, { name: definition.name, type: definition.value_type }]))

/**
 * Writes Harvest's PATCH form of custom fields (`[{id | name_key, value | delete_value: "true"}]`)
 * into `target`: a select's value is an option id (an array of them for multi_select) and is
 * stored as the option's name, as GET answers it. Returns the changes.
 */
export const applyDefinedFields = (target: Record<string, unknown>, value: unknown, definitions: Map<number, FieldDefinitionRec>, fieldType: FieldType): FieldChanges => {
  const changes: FieldChanges = {}
  if (value === undefined) return changes
  if (!Array.isArray(value)) throw validationError("custom_fields must be an array", "custom_fields")
  const known = [...definitions.values()].filter((definition) => definition.field_type === fieldType)
  for (const item of value) {
    if (typeof item !== "object" || item === null) throw validationError("custom_fields entries must be objects", "custom_fields")
    const field = item as Body
    const definition = known.find((candidate) => (field["id"] !== undefined && String(candidate.id) === String(field["id"])) || candidate.name_key === field["name_key"])
    if (definition === undefined) throw validationError(`Unknown ${fieldType} custom field ${String(field["id"] ?? field["name_key"])}`, "custom_fields")
    let next: unknown
    if (field["delete_value"] === "true") next = null
    else if (definition.value_type === "single_select" || definition.value_type === "multi_select") {
      const ids = definition.value_type === "multi_select" && Array.isArray(field["value"]) ? (field["value"] as Array<unknown>) : [field["value"]]
      const names = ids.map((id) => {
        const option = definition.options.find((candidate) => String(candidate.id) === String(id))
        if (option === undefined) throw validationError(`${String(id)} is not an option of custom field ${definition.name_key}`, "custom_fields")
        return option.name
      })
      next = definition.value_type === "multi_select" ? names : names[0]
    } else {
      if (field["value"] === undefined || field["value"] === null || field["value"] === "") throw validationError(`custom field ${definition.name_key} needs a value (or delete_value: "true")`, "custom_fields")
      next = field["value"]
    }
    changes[`custom_fields.${definition.name_key}`] = { from: target[definition.name_key] ?? null, to: next }
    target[definition.name_key] = next
  }
  return changes
}
