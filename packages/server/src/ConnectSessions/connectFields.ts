import type { AuthenticationMethod } from "@switchyard/engine"
import { Either } from "effect"
import { InvalidConnectLink } from "./ConnectSessionErrors.js"

/**
 * The values an end user entered, checked against the method's `configFields`: every
 * required field present, nothing the method does not declare. Empty optional fields are
 * dropped, so they read as absent (`$.credentials.x` is undefined, not "").
 */
export const checkFields = (
  methodName: string,
  method: AuthenticationMethod,
  values: Readonly<Record<string, string>>
): Either.Either<Record<string, string>, InvalidConnectLink> => {
  const fields = method.configFields ?? []
  const declared = new Set(fields.map((field) => field.key))
  const unknown = Object.keys(values).filter((key) => !declared.has(key))
  if (unknown.length > 0) {
    return Either.left(
      new InvalidConnectLink({
        message: `credentials.${unknown[0]} is not a field of authentication ${methodName} (fields: ${
          [...declared].join(", ") || "none"
        })`
      })
    )
  }
  const missing = fields.find((field) => field.required === true && (values[field.key] ?? "").trim() === "")
  if (missing !== undefined) {
    return Either.left(
      new InvalidConnectLink({ message: `${missing.label ?? missing.key} is required (credentials.${missing.key})` })
    )
  }
  return Either.right(Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== "")))
}
