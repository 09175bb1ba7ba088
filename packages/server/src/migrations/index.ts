import type { SqlClient } from "@effect/sql"
import type { Effect } from "effect"
import tenancy from "./0001_tenancy.js"
import accounts from "./0002_accounts.js"
import connectors from "./0003_connectors.js"
import actions from "./0004_actions.js"
import serverInstances from "./0005_server_instances.js"
import connectSessions from "./0006_connect_sessions.js"
import linking from "./0007_linking.js"
import cacheEpochs from "./0008_cache_epochs.js"
import requestLogApi from "./0009_request_log_api.js"
import webhooks from "./0010_webhooks.js"
import providerRateLimits from "./0011_provider_rate_limits.js"
import apiKeyUsage from "./0012_api_key_usage.js"
import dashboardSessions from "./0013_dashboard_sessions.js"

/** Numbered migrations, run in order at start (`<id>_<name>` keys). */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_tenancy": tenancy,
  "0002_accounts": accounts,
  "0003_connectors": connectors,
  "0004_actions": actions,
  "0005_server_instances": serverInstances,
  "0006_connect_sessions": connectSessions,
  "0007_linking": linking,
  "0008_cache_epochs": cacheEpochs,
  "0009_request_log_api": requestLogApi,
  "0010_webhooks": webhooks,
  "0011_provider_rate_limits": providerRateLimits,
  "0012_api_key_usage": apiKeyUsage,
  "0013_dashboard_sessions": dashboardSessions
}
