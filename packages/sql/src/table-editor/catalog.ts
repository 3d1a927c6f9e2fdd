import { quoteLiteral } from '../literals.js'

/**
 * Catalog reads for the table editor, run on the read-only connection. Each is one statement
 * answering one row with one json column named `data`, so the caller parses a single value.
 */

/** Schemas a user works in: everything but Postgres's own. */
export const SCHEMAS_QUERY = `SELECT coalesce(json_agg(nspname ORDER BY nspname), '[]') AS data FROM pg_namespace
WHERE nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND nspname NOT LIKE 'pg\\_temp\\_%' AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%'`

/** Tables, views, materialized views and foreign tables of one schema, with the entity fields the list shows. */
export function entitiesQuery(schema: string): string {
  return `SELECT coalesce(json_agg(json_build_object(
  'id', c.oid::int8, 'schema', n.nspname, 'name', c.relname,
  'type', CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'partitioned table' WHEN 'f' THEN 'foreign table' WHEN 'v' THEN 'view' ELSE 'materialized view' END,
  'rls_enabled', c.relrowsecurity, 'live_rows_estimate', greatest(c.reltuples, 0)::int8
) ORDER BY c.relname), '[]') AS data
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = ${quoteLiteral(schema)} AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`
}

/**
 * One relation by oid: its entity fields, columns (the project-shell spec's table column fields),
 * primary key, foreign keys (relationships) with their actions, unique constraints and policies.
 */
export function relationQuery(id: number): string {
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('A relation id is a positive integer')
  return `SELECT json_build_object(
  'id', c.oid::int8, 'schema', n.nspname, 'name', c.relname, 'comment', obj_description(c.oid, 'pg_class'),
  'type', CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'partitioned table' WHEN 'f' THEN 'foreign table' WHEN 'v' THEN 'view' ELSE 'materialized view' END,
  'rls_enabled', c.relrowsecurity, 'rls_forced', c.relforcerowsecurity, 'live_rows_estimate', greatest(c.reltuples, 0)::int8,
  'realtime_enabled', EXISTS (SELECT 1 FROM pg_publication_tables pt WHERE pt.pubname = 'supabase_realtime' AND pt.schemaname = n.nspname AND pt.tablename = c.relname),
  'columns', coalesce((SELECT json_agg(json_build_object(
      'position', a.attnum, 'name', a.attname, 'dataType', format_type(a.atttypid, a.atttypmod), 'format', t.typname,
      'typeCategory', t.typcategory, 'elementFormat', et.typname,
      'defaultValue', pg_get_expr(d.adbin, d.adrelid), 'isNullable', NOT a.attnotnull,
      'isIdentity', a.attidentity <> '', 'isGeneratable', a.attidentity = 'd', 'isGenerated', a.attgenerated <> '',
      'enum', coalesce((SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = a.atttypid), '[]'),
      'comment', col_description(c.oid, a.attnum)
    ) ORDER BY a.attnum)
    FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]'),
  'primary_keys', coalesce((SELECT json_agg(a.attname ORDER BY k.ord) FROM pg_constraint p
    CROSS JOIN LATERAL unnest(p.conkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = p.conrelid AND a.attnum = k.attnum
    WHERE p.conrelid = c.oid AND p.contype = 'p'), '[]'),
  'unique_constraints', coalesce((SELECT json_agg(json_build_object('name', u.conname, 'column', a.attname)) FROM pg_constraint u
    JOIN pg_attribute a ON a.attrelid = u.conrelid AND a.attnum = u.conkey[1]
    WHERE u.conrelid = c.oid AND u.contype = 'u' AND cardinality(u.conkey) = 1), '[]'),
  'relationships', coalesce((SELECT json_agg(json_build_object(
      'constraint_name', f.conname, 'source_column_name', sa.attname,
      'target_table_schema', tn.nspname, 'target_table_name', tc.relname, 'target_column_name', ta.attname,
      'deletion_action', f.confdeltype, 'update_action', f.confupdtype))
    FROM pg_constraint f JOIN pg_class tc ON tc.oid = f.confrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
    JOIN pg_attribute sa ON sa.attrelid = f.conrelid AND sa.attnum = f.conkey[1]
    JOIN pg_attribute ta ON ta.attrelid = f.confrelid AND ta.attnum = f.confkey[1]
    WHERE f.conrelid = c.oid AND f.contype = 'f' AND cardinality(f.conkey) = 1), '[]'),
  'policies', coalesce((SELECT json_agg(json_build_object(
      'name', p.polname, 'command', CASE p.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE' WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
      'permissive', p.polpermissive,
      'roles', CASE WHEN p.polroles = '{0}' THEN json_build_array('public') ELSE (SELECT json_agg(r.rolname ORDER BY r.rolname) FROM pg_roles r WHERE r.oid = ANY (p.polroles)) END,
      'using', pg_get_expr(p.polqual, p.polrelid), 'with_check', pg_get_expr(p.polwithcheck, p.polrelid)) ORDER BY p.polname)
    FROM pg_policy p WHERE p.polrelid = c.oid), '[]')
) AS data
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = ${id}`
}

/** The tables whose changes Realtime streams: the supabase_realtime publication's, with their ids for the table editor. */
export const REALTIME_TABLES_QUERY = `SELECT coalesce(json_agg(json_build_object(
  'id', c.oid::int8, 'schema', n.nspname, 'name', c.relname, 'rls_enabled', c.relrowsecurity,
  'replica_identity', CASE c.relreplident WHEN 'f' THEN 'full' WHEN 'n' THEN 'nothing' WHEN 'i' THEN 'index' ELSE 'default' END
) ORDER BY n.nspname, c.relname), '[]') AS data
FROM pg_publication_tables pt
JOIN pg_namespace n ON n.nspname = pt.schemaname
JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = pt.tablename
WHERE pt.pubname = 'supabase_realtime'`

/**
 * Roles left out of the policy form: Postgres's superuser and the platform's own logins (a policy for them guards
 * nothing the tenant uses). What stays: anon, authenticated, service_role and the project's own roles.
 */
export const ROLES_HIDDEN_FROM_POLICIES = [
  'postgres', 'supabase_admin', 'authenticator', 'stratum_editor', 'stratum_readonly', 'supabase_auth_admin', 'supabase_storage_admin',
  'supabase_realtime_admin', 'supabase_replication_admin', 'pgbouncer', 'dashboard_user', 'supabase_read_only_user',
  'stratum_net', 'supabase_functions_admin', 'stratum_cron',
] as const

/** Enum types and roles a column type or a policy can name. */
export const EDITOR_CHOICES_QUERY = `SELECT json_build_object(
  'enums', coalesce((SELECT json_agg(json_build_object('schema', n.nspname, 'name', t.typname) ORDER BY n.nspname, t.typname)
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE t.typtype = 'e' AND n.nspname NOT IN ('pg_catalog', 'information_schema')), '[]'),
  'roles', coalesce((SELECT json_agg(rolname ORDER BY rolname) FROM pg_roles
    WHERE rolname NOT LIKE 'pg\\_%' AND NOT rolsuper AND rolname <> ALL (ARRAY[${ROLES_HIDDEN_FROM_POLICIES.map((role) => `'${role}'`).join(', ')}])), '[]')
) AS data`
