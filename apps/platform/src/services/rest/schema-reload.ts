import { withAdminClient, type AdminConnection } from '../../control/bootstrap-roles.js'

/**
 * PostgREST keeps a schema cache; Supabase reloads it on every DDL with event triggers that send
 * `NOTIFY pgrst, 'reload schema'` (PostgREST listens on that channel). Event triggers need a
 * superuser, so the platform's own role installs them; the functions live in `extensions`, owned by
 * that role, where `postgres` cannot replace them. Idempotent: run before each PostgREST start.
 */
const SCHEMA_RELOAD_SQL = `
CREATE OR REPLACE FUNCTION extensions.pgrst_ddl_watch() RETURNS event_trigger
LANGUAGE plpgsql AS $$
BEGIN
  NOTIFY pgrst, 'reload schema';
END
$$;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_event_trigger WHERE evtname = 'pgrst_ddl_watch') THEN
    CREATE EVENT TRIGGER pgrst_ddl_watch ON ddl_command_end EXECUTE FUNCTION extensions.pgrst_ddl_watch();
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_event_trigger WHERE evtname = 'pgrst_drop_watch') THEN
    CREATE EVENT TRIGGER pgrst_drop_watch ON sql_drop EXECUTE FUNCTION extensions.pgrst_ddl_watch();
  END IF;
END
$$;
`

export async function ensureSchemaReloadTriggers(connection: AdminConnection): Promise<void> {
  await withAdminClient(connection, (client) => client.query(SCHEMA_RELOAD_SQL))
}
