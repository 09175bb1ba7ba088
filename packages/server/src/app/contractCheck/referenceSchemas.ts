import { createRequire } from "node:module"

/*
 * StackOne's reference shape of a unified operation's answer, as the real StackOne SDK
 * (`@stackone/stackone-client-ts`) validates it: the SDK's Zod schema for the operation's
 * response body. An operation of action id `hris_list_employees` is the SDK's module
 * `operations/hrislistemployees`, whose `HrisListEmployeesResponse` holds the body under one
 * key beside the HTTP metadata (`EmployeesPaginated`). The SDK is a development dependency,
 * loaded on first use; without it, or for an action id StackOne does not define, there is no
 * reference and the check says so.
 */

interface ZodIssue {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}
interface ZodLike {
  readonly safeParse: (value: unknown) => { success: true } | { success: false; error: { issues: ReadonlyArray<ZodIssue> } }
  readonly _def: { readonly schema?: ZodLike; readonly shape?: () => Record<string, ZodLike>; readonly innerType?: ZodLike }
}

export interface ReferenceSchema {
  /** The SDK's name of the body, e.g. `EmployeesPaginated`. */
  readonly name: string
  /** Problems of a body against the reference, as `path: message`; empty when it fits. */
  readonly issues: (body: unknown) => ReadonlyArray<string>
  /** The record's field names (wire names) for a body `{data: record}` or `{data: [record]}`, when the SDK declares them. */
  readonly recordFields: ReadonlyArray<string>
}

const SDK = "@stackone/stackone-client-ts"
const HTTP_METADATA = new Set(["ContentType", "Headers", "StatusCode", "RawResponse"])

const pascal = (actionId: string) => actionId.split("_").map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("")

/** The object schema beneath `.transform(...)`, `.optional()` and `.lazy(...)` wrappers. */
const objectShape = (schema: ZodLike | undefined, depth = 0): Record<string, ZodLike> | undefined => {
  if (schema === undefined || depth > 6) return undefined
  if (typeof schema._def.shape === "function") return schema._def.shape()
  const getter = (schema._def as { getter?: () => ZodLike }).getter
  return objectShape(schema._def.schema ?? schema._def.innerType ?? getter?.(), depth + 1)
}

let loadSdk: ((path: string) => unknown) | undefined | null
const sdkRequire = () => {
  if (loadSdk === undefined) {
    try {
      const require = createRequire(import.meta.url)
      require.resolve(`${SDK}/package.json`)
      loadSdk = (path: string) => require(`${SDK}/${path}`)
    } catch {
      loadSdk = null
    }
  }
  return loadSdk
}

/** Whether the StackOne SDK is installed, so that reference checks run. */
export const referenceAvailable = () => sdkRequire() !== null

/** The reference schema of the answer of `actionId`, if StackOne defines the operation and the SDK is installed. */
export const referenceSchemaOf = (actionId: string): ReferenceSchema | undefined => {
  const load = sdkRequire()
  if (load === null || load === undefined || !/^[a-z]+(_[a-z0-9]+)+$/.test(actionId)) return undefined
  let module: Record<string, ZodLike>
  try {
    module = load(`sdk/models/operations/${actionId.replace(/_/g, "")}.js`) as Record<string, ZodLike>
  } catch {
    return undefined
  }
  const response = objectShape(module[`${pascal(actionId)}Response$inboundSchema`])
  const bodyKey = Object.keys(response ?? {}).find((key) => !HTTP_METADATA.has(key))
  const body = bodyKey === undefined ? undefined : response?.[bodyKey]
  if (bodyKey === undefined || body === undefined) return undefined
  const data = objectShape(body)?.["data"]
  const recordShape = objectShape(data) ??
    objectShape((data?._def as { type?: ZodLike } | undefined)?.type) ??
    objectShape(((data?._def.innerType?._def ?? {}) as { type?: ZodLike }).type)
  return {
    name: bodyKey,
    issues: (value) => {
      const result = body.safeParse(value)
      return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
    },
    recordFields: Object.keys(recordShape ?? {})
  }
}
