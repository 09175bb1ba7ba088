import type { AuthenticationMethod } from "@switchyard/engine"
import { Either } from "effect"
import { credentialProblems, credentialsRefusal, enteredFields } from "../accounts/credentialFields.js"
import { InvalidConnectLink } from "./ConnectSessionErrors.js"

/**
 * The values an end user entered, checked against the method's `configFields` by the rule
 * API links follow (`credentialProblems`, one wording): every required field present,
 * nothing the method does not declare. Messages name the connector by its title (the
 * provider's name, not a profile's label). Empty optional fields are dropped, so they read
 * as absent (`$.credentials.x` is undefined, not "").
 */
export const checkFields = (
  methodName: string,
  method: AuthenticationMethod,
  connectorTitle: string,
  values: Readonly<Record<string, string>>
): Either.Either<Record<string, string>, InvalidConnectLink> => {
  const fields = enteredFields(method)
  const problems = credentialProblems(fields, values)
  if (problems.length > 0) {
    return Either.left(new InvalidConnectLink({ message: credentialsRefusal(problems, methodName, connectorTitle, fields) }))
  }
  return Either.right(Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== "")))
}
