import { StackOne } from "@stackone/stackone-client-ts"
import { HTTPClient } from "@stackone/stackone-client-ts/lib/http.js"
import { SDKValidationError } from "@stackone/stackone-client-ts/sdk/models/errors/sdkvalidationerror.js"
import * as operations from "@stackone/stackone-client-ts/sdk/models/operations/index.js"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { UnifiedCallAnswer, UnifiedCallRequest, UnifiedClient } from "../../src/app/contractCheck/ContractCheck.js"

/*
 * The real StackOne TypeScript SDK as the client of a contract check's unified calls: each
 * operation is called through the SDK's own method (`hris_list_employees` is
 * `stackOne.hris.listEmployees`), with the SDK's request type built from the check's wire
 * values by the SDK's own inbound schema (snake_case keys, its body DTO), so the SDK
 * serializes the request (query style, body casing) and validates the answer as it does for
 * its users. A call that resolves is an answer the SDK accepts.
 */

interface ZodLike {
  readonly safeParse: (value: unknown) => { success: true; data: unknown } | { success: false; error: { message: string } }
  readonly _def: { readonly schema?: ZodLike; readonly shape?: () => Record<string, unknown> }
}

const pascal = (words: string) => words.split("_").map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("")
const camel = (words: string) => {
  const name = pascal(words)
  return name.charAt(0).toLowerCase() + name.slice(1)
}

const shapeOf = (schema: ZodLike): Record<string, unknown> => {
  let current: ZodLike | undefined = schema
  for (let depth = 0; current !== undefined && depth < 4; depth++) {
    if (typeof current._def.shape === "function") return current._def.shape()
    current = current._def.schema
  }
  return {}
}

const parsed = (text: string): unknown => {
  try {
    return text.length === 0 ? undefined : JSON.parse(text)
  } catch {
    return text
  }
}

/** The SDK's method for an operation id, and its request schema; undefined when the SDK has no such operation. */
const sdkOperation = (stackOne: StackOne, operationId: string) => {
  const [category, ...rest] = operationId.split("_")
  const group = (stackOne as unknown as Record<string, Record<string, unknown>>)[category!]
  const method = group?.[camel(rest.join("_"))]
  const schema = (operations as unknown as Record<string, ZodLike | undefined>)[`${pascal(operationId)}Request$inboundSchema`]
  if (typeof method !== "function" || schema === undefined) return undefined
  return { call: (request: unknown) => (method as (request: unknown) => Promise<unknown>).call(group, request), schema }
}

/** The SDK's refusal as `path: message` lines (its Zod issues), or its message. */
const sdkIssues = (error: unknown): ReadonlyArray<string> => {
  const issues = error instanceof SDKValidationError
    ? (error.cause as { readonly issues?: ReadonlyArray<{ readonly path: ReadonlyArray<unknown>; readonly message: string }> }).issues
    : undefined
  if (issues === undefined) return [error instanceof Error ? error.message : String(error)]
  return issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)
}

/**
 * Where the spec and StackOne's reference disagree, the spec rules, and the SDK refuses what
 * the spec says: a user's assignments carry `progress` as text in the spec's record table, a
 * number in the reference (so the SDK accepts them only without `progress`).
 */
export const SPEC_OVER_REFERENCE: Readonly<Record<string, RegExp>> = {
  lms_list_user_assignments: /^AssignmentsPaginated\.data\.\d+\.progress: Expected number, received string$/
}

/** The SDK's issues with an answer, less those the spec rules on. */
export const sdkIssuesBeyondSpec = (operationId: string, issues: ReadonlyArray<string> | undefined) =>
  (issues ?? []).filter((issue) => SPEC_OVER_REFERENCE[operationId]?.test(issue) !== true)

export const stackOneSdkClient = (origin: string, apiKey: string): UnifiedClient => {
  // the last answer's status and text, read from a clone before the SDK reads the answer itself
  let answered: { status: number; text: string } | undefined
  const httpClient = new HTTPClient()
  httpClient.addHook("response", async (response) => {
    answered = { status: response.status, text: await response.clone().text() }
  })
  const stackOne = new StackOne({
    serverURL: origin,
    security: { username: apiKey, password: "" },
    retryConfig: { strategy: "none" },
    httpClient
  })

  const call = (request: UnifiedCallRequest): Effect.Effect<UnifiedCallAnswer> =>
    Effect.promise(async (): Promise<UnifiedCallAnswer> => {
      const operation = sdkOperation(stackOne, request.operationId)
      if (operation === undefined) {
        return { status: 0, body: `the StackOne SDK has no operation ${request.operationId}` }
      }
      // the wire form of the request, as the SDK's inbound schema reads it: its body under the DTO's name
      const bodyKey = Object.keys(shapeOf(operation.schema)).find((key) => /^[A-Z]/.test(key))
      const wire = {
        "x-account-id": request.accountId,
        ...request.pathParams,
        ...Object.fromEntries(Object.entries(request.query).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)])),
        ...(request.body === undefined || bodyKey === undefined ? {} : { [bodyKey]: request.body })
      }
      const sdkRequest = operation.schema.safeParse(wire)
      if (!sdkRequest.success) {
        return { status: 0, body: `the StackOne SDK refuses the request: ${sdkRequest.error.message}` }
      }
      answered = undefined
      try {
        await operation.call(sdkRequest.data)
        return { status: answered!.status, body: parsed(answered!.text) }
      } catch (error) {
        if (answered === undefined) {
          return { status: 0, body: `the StackOne SDK sent no request: ${error instanceof Error ? error.message : String(error)}` }
        }
        const { status, text } = answered
        // a 2xx the SDK throws on is an answer its validation refuses; other statuses are the SDK's error for them
        const refused = status >= 200 && status < 300
        return {
          status,
          body: parsed(text),
          ...(refused
            ? { clientIssues: sdkIssues(error) }
            : {})
        }
      }
    })

  return { name: "StackOne SDK", call }
}

/** What one call through the SDK answered: its status, its body and the SDK's issues with it (none when it accepted it). */
export interface SdkAnswer {
  readonly status: number
  readonly body: any
  readonly issues: ReadonlyArray<string>
}

/**
 * One account's unified calls through an SDK client (no method: the SDK's operation has its own):
 * `write` answers with the SDK's issues for the test to judge, `call` fails the test on any
 * issue but those the spec rules on (SPEC_OVER_REFERENCE).
 */
export const sdkCalls = (sdk: UnifiedClient, accountId: string) => {
  const answer = (
    operationId: string,
    options: { readonly path?: Readonly<Record<string, string>>; readonly query?: Readonly<Record<string, unknown>>; readonly body?: unknown }
  ): Effect.Effect<SdkAnswer> =>
    Effect.map(
      sdk.call({ operationId, method: "", path: "", pathParams: options.path ?? {}, query: options.query ?? {}, body: options.body, accountId }),
      (answered) => ({ status: answered.status, body: answered.body, issues: answered.clientIssues ?? [] })
    )
  return {
    /** A unified write on the record `id` (if any) with `body`. */
    write: (operationId: string, body: unknown, id?: string) => answer(operationId, { path: id === undefined ? {} : { id }, body }),
    /** A unified call whose answer the SDK accepts. */
    call: (operationId: string, options: Parameters<typeof answer>[1] = {}) =>
      Effect.tap(answer(operationId, options), (answered) => {
        expect(sdkIssuesBeyondSpec(operationId, answered.issues), `${operationId}: the SDK refused the answer`).toEqual([])
      })
  }
}
