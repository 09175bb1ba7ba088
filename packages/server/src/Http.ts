import { RunAnswersLive } from "./toApiError.js"
import { HttpApiBuilder, OpenApi } from "@effect/platform"
import { Api } from "@switchyard/api"
import { Layer } from "effect"
import packageJson from "../package.json" with { type: "json" }
import { AccountMetas } from "./Accounts/AccountMetas.js"
import { Accounts } from "./Accounts/Accounts.js"
import { ActionRunner } from "./Actions/ActionRunner.js"
import { ActionsHttpLive } from "./Actions/Http.js"
import { AccountsHttpLive } from "./Accounts/Http.js"
import { ApiKeys } from "./Auth/ApiKeys.js"
import { ApiDocsLive } from "./ApiDocsLive.js"
import { AuthenticationLive } from "./Auth/AuthenticationLive.js"
import { ConnectPageLive } from "./ConnectPage/ConnectPageLive.js"
import { ConnectorProfiles } from "./ConnectorProfiles/ConnectorProfiles.js"
import { ConnectorProfilesHttpLive } from "./ConnectorProfiles/Http.js"
import { Connectors } from "./ConnectorCatalog/Connectors.js"
import { ConnectorsHttpLive } from "./ConnectorCatalog/Http.js"
import { ConnectLinking } from "./ConnectSessions/ConnectLinking.js"
import { ConnectOAuth2 } from "./ConnectSessions/ConnectOAuth2.js"
import { OAuth2CallbackLive } from "./ConnectPage/OAuth2CallbackLive.js"
import { ConnectSessions } from "./ConnectSessions/ConnectSessions.js"
import { ConnectSessionsHttpLive } from "./ConnectSessions/Http.js"
import { ErrorResponsesLive } from "./ErrorResponses.js"
import { FaviconLive } from "./FaviconLive.js"
import { AccountTools } from "./Mcp/AccountTools.js"
import { McpEndpointLive } from "./Mcp/McpEndpoint.js"
import { MetricsEndpointLive } from "./Metrics/MetricsHttp.js"
import { ProjectsRepo } from "./Projects/ProjectsRepo.js"
import { RequestLogsHttpLive } from "./RequestLogs/Http.js"
import { RequestLogs } from "./RequestLogs/RequestLogs.js"
import { SystemHttpLive } from "./SystemHttp.js"
import { UnifiedHttpLive } from "./Unified/Http.js"
import { ProxyHttpLive } from "./Unified/ProxyHttp.js"
import { UnifiedRunner } from "./Unified/UnifiedRunner.js"
import { WebhooksHttpLive } from "./Webhooks/Http.js"
import { Webhooks } from "./Webhooks/Webhooks.js"

/**
 * The API as this server serves it: /openapi.json and /docs give the package's version (the
 * one `switchyard --version` prints; Changesets keeps @switchyard/api's linked to it).
 */
const ServedApi = Api.annotate(OpenApi.Version, packageJson.version)

/** The API's handlers, middleware, OpenAPI document and docs page; needs SQL and config. */
export const HttpApiLive = HttpApiBuilder.api(ServedApi).pipe(
  Layer.provide([SystemHttpLive, AccountsHttpLive, ConnectorsHttpLive, ConnectorProfilesHttpLive, ConnectSessionsHttpLive, WebhooksHttpLive, RequestLogsHttpLive, ActionsHttpLive, ...UnifiedHttpLive, ProxyHttpLive, McpEndpointLive, MetricsEndpointLive, ConnectPageLive, OAuth2CallbackLive]),
  Layer.provide(AuthenticationLive),
  Layer.provide([Accounts.Default, AccountMetas.Default, ApiKeys.Default, Connectors.Default, ConnectorProfiles.Default, ConnectSessions.Default, Webhooks.Default, ConnectLinking.Default, ConnectOAuth2.Default, ProjectsRepo.Default, RequestLogs.Default, ActionRunner.Default, UnifiedRunner.Default, AccountTools.Default]),
  // the runner logs the status its failures are answered with: the edge's mapping
  Layer.provide(RunAnswersLive)
)

export const HttpExtrasLive = Layer.mergeAll(
  ErrorResponsesLive,
  HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }),
  ApiDocsLive,
  FaviconLive
)
