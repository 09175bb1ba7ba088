import { Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Either, Option } from "effect"
import {
  type Draft,
  draftConnectorFromText,
  isConnectorKey,
  RPC_CHOICES,
  type RpcChoice
} from "../../features/connectorBuilder/draftConnector.js"
import { MAX_DOCUMENT_BYTES } from "../../features/connectorBuilder/loadApiDocument.js"
import { CATEGORIES } from "../../features/connectorBuilder/UnifiedCatalogue.js"
import { checkCommand } from "./ConnectorsCheckCommand.js"
import { mockCommand } from "./ConnectorsMockCommand.js"
import { UsageError } from "./Support.js"

/*
 * `switchyard connectors ...`: work on connector YAML files, offline (no database, no
 * running server). `draft` writes a starting connector from a provider's OpenAPI document;
 * `check` runs one against a mock of that document (ConnectorsCheckCommand.ts); `mock` leaves
 * that mock running to try a connector through a server by hand.
 */

/** Why a file cannot be read, in words (the platform's error names the system call). */
const unreadable = (path: string) => (error: { readonly message: string; readonly reason?: string }) =>
  new UsageError({
    message: error.reason === "NotFound"
      ? `--openapi ${path}: no such file`
      : error.reason === "PermissionDenied"
      ? `--openapi ${path}: permission denied`
      : `--openapi ${path}: cannot be read (${error.message})`
  })

/** The review summary: what was drafted and what is left to a person, counted. */
const summaryLines = (draft: Draft, source: string, target: string): ReadonlyArray<string> => {
  const { summary } = draft
  const notUnderstood = draft.review.filter((item) => item.message.startsWith("not understood:"))
  return [
    `drafted ${target} from ${source}: category ${summary.category} (${summary.categoryReason})`,
    `  actions matched to unified operations: ${summary.unifiedActions}`,
    `  RPC actions for the other operations:  ${summary.rpcActions}`,
    `  fields mapped: ${summary.fieldsMapped}, for review: ${summary.fieldsForReview}, without a candidate: ${summary.fieldsUnmapped}`,
    `  authentication methods: ${summary.authMethods}, security schemes not understood: ${summary.schemesNotUnderstood}`,
    ...notUnderstood.map((item) => `    ${item.message}`),
    `  review items: ${draft.review.length} (each is a "# review:" comment in the YAML)`
  ]
}

const draft = Command.make("draft", {
  openapi: Options.text("openapi").pipe(
    Options.withPseudoName("file"),
    Options.withDescription("The provider's OpenAPI 3.x or Swagger 2.0 document, JSON or YAML (at most 16 MB).")
  ),
  category: Options.choice("category", CATEGORIES).pipe(
    Options.optional,
    Options.withDescription("The unified category to map operations to (default: the one the paths match best).")
  ),
  key: Options.text("key").pipe(
    Options.withPseudoName("key"),
    Options.optional,
    Options.withDescription("The connector key (default: made from the document's title).")
  ),
  out: Options.text("out").pipe(
    Options.withPseudoName("file"),
    Options.optional,
    Options.withDescription("Write the YAML to this file (default: standard output). The review summary goes to standard error.")
  ),
  rpc: Options.choice("rpc", RPC_CHOICES).pipe(
    Options.withDefault<RpcChoice>("all"),
    Options.withDescription(
      "Which operations no unified action takes become RPC actions: all (the default), reads (GET and HEAD) or none."
    )
  )
}, ({ category, key, openapi, out, rpc }) =>
  Effect.gen(function*() {
    if (Option.isSome(key) && !isConnectorKey(key.value)) {
      return yield* new UsageError({ message: `--key ${key.value}: a connector key is lowercase letters, digits, _ and - (at most 100)` })
    }
    const fs = yield* FileSystem.FileSystem
    const info = yield* fs.stat(openapi).pipe(Effect.mapError(unreadable(openapi)))
    if (info.type !== "File") return yield* new UsageError({ message: `--openapi ${openapi}: not a file` })
    // refused before it is read: the bound is what keeps a huge file out of memory
    if (Number(info.size) > MAX_DOCUMENT_BYTES) {
      return yield* new UsageError({
        message: `cannot draft from ${openapi}: the document is ${Number(info.size)} bytes; documents of at most 16 MB (${MAX_DOCUMENT_BYTES} bytes) are read`
      })
    }
    const text = yield* fs.readFileString(openapi).pipe(Effect.mapError(unreadable(openapi)))
    const drafted = draftConnectorFromText(text, {
      category: Option.getOrUndefined(category),
      key: Option.getOrUndefined(key),
      rpc
    })
    if (Either.isLeft(drafted)) return yield* new UsageError({ message: `cannot draft from ${openapi}: ${drafted.left.message}` })
    const result = drafted.right
    if (Option.isSome(out)) {
      yield* fs.writeFileString(out.value, result.yaml).pipe(
        Effect.mapError((error) => new UsageError({ message: `--out ${out.value}: cannot be written (${error.message})` }))
      )
    } else {
      yield* Console.log(result.yaml.trimEnd())
    }
    for (const line of summaryLines(result, openapi, Option.getOrElse(out, () => "standard output"))) yield* Console.error(line)
  })).pipe(
    Command.withDescription(
      "Write a starting connector YAML from a provider's OpenAPI document: authentication from its security schemes, " +
        "the base URL from its servers, a unified action (with a proposed field mapping and pagination) per operation " +
        "that matches a model of the category, an RPC action per other operation. What it could not decide is marked " +
        "`# review:` in the YAML."
    )
  )

/** The group's subcommands, in the order help lists them. */
export const connectorsSubcommands = [draft, checkCommand, mockCommand] as const

export const connectorsCommand = Command.make("connectors").pipe(
  Command.withDescription(
    "Work on connector definitions offline: draft one from a provider's OpenAPI document, check one against it " +
      "(no database or running server needed)."
  ),
  Command.withSubcommands(connectorsSubcommands)
)
