/*
 * The program PackedPackages.test.ts copies into a fresh project outside the workspace, where
 * @switchyard/client is installed from its packed tarball: typechecked there under
 * moduleResolution bundler and node16, then run against the packed server. It lists the
 * built-in connectors through the Effect client and the Promise client, and checks that each
 * reports a wrong key as the typed Unauthorized error; it prints what it saw as JSON.
 */
import { createSwitchyardClient, SwitchyardClient, Unauthorized } from "@switchyard/client"
import { ConfigProvider, Effect } from "effect"

type Listed<A> = ReadonlyArray<A> | { readonly data: ReadonlyArray<A> }
const ids = (answer: Listed<{ readonly id: string }>): Array<string> =>
  ("data" in answer ? answer.data : answer).map((connector) => connector.id)

// The Effect client, configured from SWITCHYARD_BASE_URL and SWITCHYARD_API_KEY.
const viaEffect = await Effect.gen(function*() {
  const client = yield* SwitchyardClient
  const listed = yield* client.connectors.list_connectors({ urlParams: {} })
  // The same through a client with a wrong key: the typed error, caught by its tag.
  const refused = yield* Effect.flatMap(SwitchyardClient, (other) => other.connectors.list_connectors({ urlParams: {} })).pipe(
    Effect.provide(SwitchyardClient.Default),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map([
      ["SWITCHYARD_BASE_URL", process.env["SWITCHYARD_BASE_URL"]!],
      ["SWITCHYARD_API_KEY", "swy_not_a_key"]
    ]))),
    Effect.as("accepted"),
    Effect.catchTag("Unauthorized", (error) => Effect.succeed(error._tag))
  )
  return { ids: ids(listed), refused }
}).pipe(Effect.provide(SwitchyardClient.Default), Effect.runPromise)

// The Promise client.
const switchyard = createSwitchyardClient({
  baseUrl: process.env["SWITCHYARD_BASE_URL"]!,
  apiKey: process.env["SWITCHYARD_API_KEY"]!
})
const viaPromise = ids(await switchyard.connectors.list_connectors({ urlParams: {} }))
const wrongKey = createSwitchyardClient({ baseUrl: process.env["SWITCHYARD_BASE_URL"]!, apiKey: "swy_not_a_key" })
const rejected = await wrongKey.connectors.list_connectors({ urlParams: {} }).then(
  () => "accepted",
  (error: unknown) => error instanceof Unauthorized ? error._tag : String(error)
)

console.log(JSON.stringify({ effect: viaEffect, promise: { ids: viaPromise, rejected } }))
