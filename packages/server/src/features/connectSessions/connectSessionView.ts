import type { ConnectSession } from "@switchyard/api"
import type { ConnectSessionRow } from "./ConnectSessionsRepo.js"

/** A pending session past its expiry shows as expired (nothing rewrites the row when it lapses). */
const statusOf = (row: ConnectSessionRow, now: number): ConnectSession["status"] =>
  row.status === "pending" && row.expires_at.getTime() <= now ? "expired" : row.status

/** A session as the platform API (and its webhook events) show it; never its token. */
export const connectSessionView = (row: ConnectSessionRow, now: number): ConnectSession => ({
  id: row.id,
  organization_id: row.organization_id,
  project_id: row.project_id,
  origin_owner_id: row.origin_owner_id,
  origin_owner_name: row.origin_owner_name,
  origin_username: row.origin_username,
  provider: row.provider,
  categories: row.categories,
  connector_profile_id: row.connector_profile_id,
  account_id: row.account_id,
  multiple: row.multiple,
  label: row.label,
  metadata: row.metadata,
  redirect_url: row.redirect_url,
  expires_at: row.expires_at.toISOString(),
  created_at: row.created_at.toISOString(),
  status: statusOf(row, now),
  failure_reason: row.failure_reason
})
