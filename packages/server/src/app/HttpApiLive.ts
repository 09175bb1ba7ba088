import { RunAnswersLive } from "../edge/toApiError.js"
import { HttpApiBuilder, OpenApi } from "@effect/platform"
import { Api } from "@switchyard/api"
import { Layer } from "effect"
import packageJson from "../../package.json" with { type: "json" }
import { AccountMetas } from "../features/accounts/AccountMetas.js"
import { Accounts } from "../features/accounts/Accounts.js"
import { ActionRunner } from "../features/actions/ActionRunner.js"
import { ActionsHttpLive } from "../edge/http/ActionsHttp.js"
import { AccountsHttpLive } from "../edge/http/AccountsHttp.js"
import { ApiKeys } from "../features/auth/ApiKeys.js"
import { ApiKeysHttpLive } from "../edge/http/ApiKeysHttp.js"
import { ProjectApiKeys } from "../features/auth/ProjectApiKeys.js"
import { ApiDocsLive } from "../edge/http/ApiDocsLive.js"
import { AuthenticationLive } from "../edge/AuthenticationLive.js"
import { ConnectPageLive } from "../edge/connectPage/ConnectPageLive.js"
import { DashboardPageLive } from "../edge/dashboard/DashboardPageLive.js"
import { DashboardSessionLive } from "../edge/dashboard/DashboardSessionLive.js"
import { ConnectorProfiles } from "../features/connectorProfiles/ConnectorProfiles.js"
import { ConnectorProfilesHttpLive } from "../edge/http/ConnectorProfilesHttp.js"
import { Connectors } from "../features/connectorCatalog/Connectors.js"
import { ConnectorsHttpLive } from "../edge/http/ConnectorsHttp.js"
import { ConnectLinking } from "../features/connectSessions/ConnectLinking.js"
import { ConnectOAuth2 } from "../features/connectSessions/ConnectOAuth2.js"
import { OAuth2CallbackLive } from "../edge/connectPage/OAuth2CallbackLive.js"
import { ConnectSessions } from "../features/connectSessions/ConnectSessions.js"
import { ConnectSessionsHttpLive } from "../edge/http/ConnectSessionsHttp.js"
import { ErrorResponsesLive } from "../edge/ErrorResponses.js"
import { FaviconLive } from "../edge/http/FaviconLive.js"
import { AccountTools } from "../edge/mcp/AccountTools.js"
import { McpEndpointLive } from "../edge/mcp/McpEndpoint.js"
import { MetricsEndpointLive } from "../edge/http/MetricsHttp.js"
import { ProjectsRepo } from "../features/projects/ProjectsRepo.js"
import { RequestLogsHttpLive } from "../edge/http/RequestLogsHttp.js"
import { RequestLogs } from "../features/requestLogs/RequestLogs.js"
import { SystemHttpLive } from "../edge/http/SystemHttp.js"
import { UnifiedHttpLive } from "../edge/http/UnifiedHttp.js"
import { ProxyHttpLive } from "../edge/http/ProxyHttp.js"
import { UnifiedRunner } from "../features/unified/UnifiedRunner.js"
import { WebhooksHttpLive } from "../edge/http/WebhooksHttp.js"
import { Webhooks } from "../features/webhooks/Webhooks.js"

/**
 * The API as this server serves it: /openapi.json and /docs give the package's version (the
 * one `switchyard --version` prints; Changesets keeps @switchyard/api's linked to it).
 */
const ServedApi = Api.annotate(OpenApi.Version, packageJson.version)

/** The API's handlers, middleware, OpenAPI document and docs page; needs SQL and config. */
export const HttpApiLive = HttpApiBuilder.api(ServedApi).pipe(
  Layer.provide([SystemHttpLive, AccountsHttpLive, ConnectorsHttpLive, ConnectorProfilesHttpLive, ConnectSessionsHttpLive, WebhooksHttpLive, RequestLogsHttpLive, ApiKeysHttpLive, ActionsHttpLive, ...UnifiedHttpLive, ProxyHttpLive, McpEndpointLive, MetricsEndpointLive, ConnectPageLive, OAuth2CallbackLive, DashboardPageLive, DashboardSessionLive]),
  Layer.provide(AuthenticationLive),
  Layer.provide([Accounts.Default, AccountMetas.Default, ApiKeys.Default, ProjectApiKeys.Default, Connectors.Default, ConnectorProfiles.Default, ConnectSessions.Default, Webhooks.Default, ConnectLinking.Default, ConnectOAuth2.Default, ProjectsRepo.Default, RequestLogs.Default, ActionRunner.Default, UnifiedRunner.Default, AccountTools.Default]),
  // the runner logs the status its failures are answered with: the edge's mapping
  Layer.provide(RunAnswersLive)
)

export const HttpExtrasLive = Layer.mergeAll(
  ErrorResponsesLive,
  HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }),
  ApiDocsLive,
  FaviconLive
)
