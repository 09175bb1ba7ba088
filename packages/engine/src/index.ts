export * from "./Canonical.js"
export * from "./compileConnectorExpressions.js"
export * from "./credentialSecrets.js"
export * from "./ConnectorDefinition.js"
export * from "./ConnectorParseError.js"
export * from "./Expressions.js"
export * from "./FileDownload.js"
export * from "./JsonPathSyntax.js"
export * from "./parseConnector.js"
export * from "./ProviderTransport.js"
export * from "./actionInputs.js"
export { type ActionPlan, type AuthPlan, findAction, planAction, type StepPlan, stepReferences } from "./actionPlan.js"
export * from "./coerce.js"
export * from "./evaluate.js"
export { applyMapping, compileFields, type FieldPlan, type MappingPlan, UNMAPPED_ENUM_VALUE } from "./mapping.js"
export {
  type JsonRpcError,
  MCP_PROTOCOL_VERSION,
  type McpAnswer,
  mcpInitializeParams,
  parseMcpResponse,
  readSseLine,
  sseEvents
} from "./mcp.js"
export { collectSecrets, REDACTED, redactText, redactValue, secretForms } from "./redact.js"
export * from "./runAction.js"
export * from "./RunErrors.js"
export * from "./TokenCache.js"
