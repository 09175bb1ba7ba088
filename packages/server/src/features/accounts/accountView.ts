import type { Account } from "@switchyard/api"
import type { AccountRow } from "./AccountsRepo.js"

/**
 * An account as the platform API shows it without expansions: what webhook events carry, and
 * the base of every API answer. Never its credentials (the row does not hold them).
 */
export const accountView = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  owner_id: row.owner_id,
  owner_name: row.owner_name,
  owner_username: row.owner_username,
  connector_key: row.connector_key,
  connector_version: row.connector_version,
  connector_profile_id: row.connector_profile_id,
  status: row.status,
  status_reasons: row.status_reasons,
  settings: row.settings,
  label: row.label,
  metadata: row.metadata,
  linked_via: row.linked_via,
  connect_session_id: row.connect_session_id,
  connected_at: row.connected_at.toISOString(),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  connector: null,
  connector_profile: null,
  last_request: null,
  actions: null
})
