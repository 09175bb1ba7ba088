import { FetchHttpClient, type HttpClientResponse } from "@effect/platform"
import { Cause, Effect, Exit, type Redacted } from "effect"
import { type Cursor, type Page, paginateAsync, pagesAsync, type RecordOf } from "./paginate.js"
import type { RetryPolicy } from "./RetryPolicy.js"
import { type Client, makeClient } from "./SwitchyardClient.js"

export interface PromiseClientOptions {
  /** Where the server listens, e.g. `https://switchyard.example.com`. */
  readonly baseUrl: URL | string
  /** Omitted in a page the Switchyard server serves (the dashboard): its session cookie authenticates. */
  readonly apiKey?: Redacted.Redacted | string | undefined
  /** Retries of 429 and 408 answers; the default policy when omitted, `false` for none. */
  readonly retry?: Partial<RetryPolicy> | false | undefined
  /** The `fetch` to send with (default `globalThis.fetch`), e.g. one going through a proxy. */
  readonly fetch?: typeof globalThis.fetch | undefined
}

export interface CallOptions {
  /**
   * Aborts the call, its retries and their waits; the call then rejects with `signal.reason`
   * (an `AbortError` DOMException unless the caller gave another), as `fetch` does.
   */
  readonly signal?: AbortSignal | undefined
}

type WithResponse = readonly [unknown, HttpClientResponse.HttpClientResponse]

/** The request without `withResponse`: Promise callers get the decoded answer only. */
type PromiseRequest<Request> = Request extends { readonly withResponse?: unknown } ? Omit<Request, "withResponse"> : Request

type PromiseMethod<Method> = Method extends (request: infer Request) => Effect.Effect<infer A, infer _E, infer _R>
  ? (request: PromiseRequest<Request>, options?: CallOptions) => Promise<Exclude<A, WithResponse>>
  : never

/**
 * Every group and operation of the derived client, returning Promises. A failure rejects with
 * the same typed error the Effect client fails with (`PreconditionFailed`, `NotFound`, ...),
 * so `error._tag` and `instanceof` both work.
 */
export type PromiseClient<C = Client> = {
  readonly [Group in keyof C]: { readonly [Operation in keyof C[Group]]: PromiseMethod<C[Group][Operation]> }
}

export interface SwitchyardPromiseClient extends PromiseClient {
  /** The records of a unified list, following `next`: `for await (const record of client.paginate(...))`. */
  readonly paginate: <P extends Page<unknown>>(list: (cursor: Cursor) => Promise<P>) => AsyncIterable<RecordOf<P>>
  /** The pages of a unified list, following `next`. */
  readonly pages: <P extends Page<unknown>>(list: (cursor: Cursor) => Promise<P>) => AsyncIterable<P>
}

/** The client for callers that do not use Effect. It holds no resources: there is nothing to close. */
export const createSwitchyardClient = (options: PromiseClientOptions): SwitchyardPromiseClient => {
  const fetch = options.fetch ?? globalThis.fetch
  const retry = options.retry === false ? undefined : (options.retry ?? {})
  const client = Effect.runSync(
    makeClient({ apiKey: options.apiKey, baseUrl: options.baseUrl, retry }).pipe(Effect.provide(FetchHttpClient.layer))
  )
  // The fetch client reads its `fetch` from the calling fiber's context, so each call provides it.
  const run = <A, E>(effect: Effect.Effect<A, E>, callOptions?: CallOptions): Promise<A> => {
    const signal = callOptions?.signal
    return Effect.runPromiseExit(
      Effect.provideService(effect, FetchHttpClient.Fetch, fetch),
      signal === undefined ? undefined : { signal }
    ).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      // An abort interrupts the fiber; reject as fetch does, with the signal's reason, not Effect's interruption.
      if (signal?.aborted === true && Cause.isInterrupted(exit.cause)) throw signal.reason
      throw Cause.squash(exit.cause)
    })
  }
  const groups = Object.fromEntries(
    Object.entries(client as unknown as Record<string, Record<string, (request: unknown) => Effect.Effect<unknown>>>).map((
      [group, operations]
    ) => [
      group,
      Object.fromEntries(
        Object.entries(operations).map((
          [name, operation]
        ) => [name, (request: unknown, callOptions?: CallOptions) => run(operation(request), callOptions)])
      )
    ])
  ) as unknown as PromiseClient
  return { ...groups, paginate: paginateAsync, pages: pagesAsync }
}
