import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * One counter every process polls to know whether what it caches (API keys, account
 * contexts) may have changed. It is bumped by deferred triggers, at commit: a reader never
 * sees the bump before the change, and the row is locked only for the instant of the commit,
 * so transactions that touch several of these tables cannot deadlock on it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE cache_epochs (name text PRIMARY KEY, epoch bigint NOT NULL)`
  yield* sql`INSERT INTO cache_epochs (name, epoch) VALUES ('contexts', 0)`
  yield* sql`
    CREATE FUNCTION switchyard_bump_cache_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE cache_epochs SET epoch = epoch + 1 WHERE name = 'contexts';
      RETURN NULL;
    END
    $$`
  // Not last_request_at (written in batches all the time) nor the refresh lease columns.
  const watched = {
    accounts: `DELETE OR UPDATE OF project_id, name, owner_id, owner_name, owner_username, connector_key,
      connector_version, connector_profile_id, status, status_reasons, settings, credentials_ciphertext,
      credentials_key_id, credentials_version, label, metadata, auth_method, linked_via, connect_session_id`,
    connector_profiles: "DELETE OR UPDATE",
    // a new version can change what `latest` resolves to
    connector_versions: "INSERT OR DELETE OR UPDATE",
    projects: "DELETE OR UPDATE",
    api_keys: "DELETE OR UPDATE"
  }
  for (const [table, events] of Object.entries(watched)) {
    yield* sql.unsafe(`
      CREATE CONSTRAINT TRIGGER ${table}_cache_epoch AFTER ${events} ON ${table}
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION switchyard_bump_cache_epoch()`)
  }
})
