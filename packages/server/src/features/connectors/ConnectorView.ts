import type { ConnectorActionSummary, ConnectorOwner, ConnectorVerification, ConnectorVersion } from "@switchyard/api"
import { type ActionDefinition, type ParsedConnector, verificationDocuments } from "@switchyard/engine"
import type { VisibleVersion } from "./ConnectorRegistry.js"

/** How connector definitions look through the API: metadata only, never credentials. */

export const versionView = (row: VisibleVersion): ConnectorVersion => ({
  key: row.key,
  version: row.version,
  owner: row.owner,
  content_hash: row.content_hash,
  created_at: row.created_at.toISOString()
})

export const actionSummary = (action: ActionDefinition, enabled: boolean | null): ConnectorActionSummary => ({
  id: action.actionId,
  label: action.label,
  description: action.description ?? null,
  action_type: action.actionType,
  categories: action.categories ?? [],
  required_scopes: action.requiredScopes === undefined ? [] : [action.requiredScopes].flat(),
  inputs: (action.inputs ?? []).map((input) => ({
    name: input.name,
    type: input.type,
    in: input.in ?? null,
    required: input.required ?? false,
    array: input.array ?? false,
    description: input.description ?? null,
    values: input.oneOf === undefined ? null : [input.oneOf.values].flat()
  })),
  enabled
})

export const authenticationMethods = (connector: ParsedConnector) =>
  (connector.definition.authentication ?? []).flatMap((entry) =>
    Object.entries(entry).map(([key, method]) => ({
      key,
      type: method.type,
      label: method.label ?? null,
      authorization_type: method.authorization?.type ?? null,
      config_fields: (method.configFields ?? []).map((field) => ({
        key: field.key,
        label: field.label ?? null,
        type: field.type ?? null,
        required: field.required ?? false,
        // undeclared counts as secret, as redaction treats it (fail safe)
        secret: field.secret ?? true,
        placeholder: field.placeholder === undefined ? null : String(field.placeholder),
        description: field.description ?? null
      }))
    }))
  )

/** Where a contract-level connector's provider document lies in the Switchyard repository. */
const PROVIDER_DOCUMENTS_PATH = "packages/connectors/provider-documents"

const COMMUNITY: ConnectorVerification = { level: "community", document: null, documents: [], document_url: null, sources: [] }

/**
 * How a version was checked, as its definition declares it. Only a built-in's word counts: a
 * custom connector is an uploaded file the server cannot vouch for, so it is community
 * whatever its `info.verification` claims (the block is allowed so a built-in's YAML uploads).
 */
export const verificationView = (owner: ConnectorOwner, connector: ParsedConnector): ConnectorVerification => {
  const declared = connector.definition.info.verification
  if (owner === "custom" || declared === undefined) return COMMUNITY
  const documents = verificationDocuments(declared).map((document) => `${PROVIDER_DOCUMENTS_PATH}/${document}`)
  return {
    level: declared.level,
    document: documents[0] ?? null,
    documents,
    document_url: declared.source ?? null,
    sources: declared.sources ?? []
  }
}

export const eventActionsOf = (connector: ParsedConnector): ReadonlyArray<ActionDefinition> =>
  connector.definition.events?.actions ?? []

export const scopeDefinitions = (connector: ParsedConnector) =>
  Object.entries(connector.definition.scopeDefinitions ?? {}).map(([name, scope]) => ({
    name,
    description: scope.description ?? null,
    includes: scope.includes ?? []
  }))
