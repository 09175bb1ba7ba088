import type { UnifiedKind } from "./unifiedEndpoint.js"

/*
 * The OpenAPI description of every unified operation, written once from its kind: what the
 * operation answers and the rules all unified operations share, so that no endpoint goes
 * undocumented and the wording cannot drift between them. An endpoint's own description, when
 * it has one, comes first.
 */

const answers: Record<UnifiedKind, string> = {
  list: "The records in the unified shape, a page at a time: `page_size` 1..200 (default 25), then pass the " +
    "answer's `next` back as `next` for the following page (`null` on the last; a cursor continues only this " +
    "account and operation, else 400). `fields` keeps only the named fields, `filter[...]` narrows the list " +
    "(unknown filter keys are 400), `proxy[...]` goes to the provider's query and `raw=true` adds the provider " +
    "calls, credentials redacted.",
  get: "One record by id, in the unified shape. `fields` keeps only the named fields, `proxy[...]` goes to the " +
    "provider's query and `raw=true` adds the provider calls, credentials redacted.",
  download: "The bytes are streamed from the provider as they arrive, never held in memory: `export_format` sets " +
    "the media type to answer with and `format=base64` answers base64 text. Errors before the first byte are the " +
    "usual JSON errors; a failure after it cuts the connection.",
  create: "Creates the record at the provider from the unified body (properties it does not declare are accepted " +
    "and dropped) and answers 201 `{statusCode, message, timestamp, data: {id, remote_id}}` naming the new record.",
  update: "Changes the record at the provider from the unified body (properties it does not declare are accepted " +
    "and dropped) and answers `{statusCode, message, timestamp}`.",
  move: "Moves the record at the provider and answers `{statusCode, message, timestamp, data: {id, remote_id}}` " +
    "naming the record moved.",
  reject: "Rejects the record at the provider and answers `{statusCode, message, timestamp, data: {id, remote_id}}` " +
    "naming the record rejected.",
  upload: "The document is JSON with base64 `content`; answers 201 `{statusCode, message, timestamp}` once the " +
    "provider stored it.",
  delete: "Deletes (or cancels) the record at the provider and answers `{statusCode, message, timestamp}`.",
  invite: "Sends the provider's invitation for the record and answers `{statusCode, message, timestamp, data: " +
    "{id, remote_id}}` naming the record invited.",
  batch: "Sends the items to the provider and answers 202 `{statusCode, message, timestamp, errors}`: `errors` " +
    "lists, for each item in order, what the provider refused (empty for an item it took).",
  upsert: "Creates the record at the provider, or changes the one with the same external reference, and answers " +
    "201 `{statusCode, message, timestamp, data: {id, remote_id, external_reference}}`.",
  order: "Places the order (an assessment or a background check for a candidate) at the provider and answers " +
    "`{id, remote_id, test_url}`: the order, and where the candidate takes it when the provider gives that."
}

const keys = (kind: UnifiedKind) =>
  kind === "list" || kind === "get" || kind === "download"
    ? "Full Access, Actions or Read Only keys."
    : "Full Access or Actions keys (Read Only keys may not write)."

/** The description of the unified operation `actionId` of `kind`, after its own `description` if it has one. */
export const describeUnifiedOperation = (options: {
  readonly kind: UnifiedKind
  readonly actionId: string
  readonly description?: string | undefined
}): string => {
  const runs = `Runs the connector action \`${options.actionId}\` of the account in \`x-account-id\`: 501 when ` +
    "the account's connector version does not implement it, 403 when its connector profile does not enable it, " +
    "412 when the account is suspended, expired or disabled or its profile is inactive. Provider failures: a 4xx " +
    "answer is 400 with `provider_errors`, 5xx or unreachable 502, a timeout 408 and rate limiting 429, both with " +
    `\`Retry-After\`. ${keys(options.kind)}`
  return [options.description, answers[options.kind], runs].filter((part) => part !== undefined).join("\n\n")
}
