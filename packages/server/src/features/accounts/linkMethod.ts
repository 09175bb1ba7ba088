import type { ParsedConnector } from "@switchyard/engine"
import { Either } from "effect"
import { namedMethods } from "../connectors/authenticationMethods.js"
import { InvalidAccountCredentials } from "./AccountErrors.js"
import { credentialProblems, credentialsRefusal, describeFields, storedFields } from "./credentialFields.js"

/** The method an API link runs with; `null` stores none, so the account follows its connector's first method. */
export interface LinkMethod {
  readonly methodName: string | null
}

const refuse = (message: string) => Either.left(new InvalidAccountCredentials({ message }))

/**
 * The authentication method of an API link (`POST /v2/accounts`), checked against its
 * credentials before anything is stored. A named `auth_method` must exist and fit. Without
 * one, a connector with a single method uses it; with several, the first method the
 * credentials fit (each method's problems are named when none fits). The name is stored
 * only when it is a choice, so an account on a one-method connector keeps following the
 * first method of whatever version its profile moves it to.
 */
export const linkMethod = (
  connector: ParsedConnector,
  subject: string,
  requested: string | undefined,
  credentials: Readonly<Record<string, unknown>>
): Either.Either<LinkMethod, InvalidAccountCredentials> => {
  const methods = namedMethods(connector)
  const names = methods.map(([name]) => `"${name}"`).join(", ")
  if (methods.length === 0) {
    if (requested !== undefined) return refuse(`auth_method ${requested}: ${subject} has no authentication methods`)
    const problems = credentialProblems([], credentials)
    return problems.length === 0
      ? Either.right({ methodName: null })
      : refuse(`credentials ${problems.join("; ")} (${subject} has no authentication methods: send credentials {})`)
  }
  const check = ([name, method]: (typeof methods)[number]) => {
    const fields = storedFields(method)
    return { name, fields, problems: credentialProblems(fields, credentials) }
  }
  if (requested !== undefined) {
    const named = methods.find(([name]) => name === requested)
    if (named === undefined) return refuse(`auth_method ${requested} is not an authentication method of ${subject} (methods: ${names})`)
    const checked = check(named)
    return checked.problems.length === 0
      ? Either.right({ methodName: requested })
      : refuse(credentialsRefusal(checked.problems, checked.name, subject, checked.fields))
  }
  const checked = methods.map(check)
  const fitting = checked.find((method) => method.problems.length === 0)
  if (fitting !== undefined) return Either.right({ methodName: methods.length === 1 ? null : fitting.name })
  if (checked.length === 1) {
    const only = checked[0]!
    return refuse(credentialsRefusal(only.problems, only.name, subject, only.fields))
  }
  return refuse(
    `credentials fit no authentication method of ${subject} (name one with auth_method): ${
      checked.map((method) => `"${method.name}": ${method.problems.join(" and ")} (expects: ${describeFields(method.fields)})`)
        .join("; ")
    }`
  )
}
