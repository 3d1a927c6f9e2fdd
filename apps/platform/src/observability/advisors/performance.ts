import { NOT_FROM_EXTENSION, NOT_SYSTEM, POLICIES, type LintDefinition } from './lint.js'

const tableMetadata = (schema: string, name: string) => `jsonb_build_object('schema', ${schema}, 'name', ${name}, 'type', 'table')`

/** The functions whose value is the same for every row of a statement, yet run per row unless wrapped in a subselect. */
const PER_STATEMENT_CALL = `'auth\\.(uid|jwt|role|email)\\(\\)|current_setting\\('`
/**
 * A call that is the value of a subselect, as Postgres writes a policy back (`( SELECT auth.uid() AS uid)`,
 * `( SELECT (auth.jwt() ->> 'sub'::text))`), runs once per statement (an initplan): its call is taken out
 * before looking for the others. A call deeper in a subquery (`... WHERE owner = auth.uid())`) still counts.
 */
const WRAPPED_CALL = `'SELECT\\s+\\(*\\s*(auth\\.(uid|jwt|role|email)\\(\\)|current_setting\\()'`
const unwrappedCall = (expression: string) => `regexp_replace(${expression}, ${WRAPPED_CALL}, '', 'gi') ~* ${PER_STATEMENT_CALL}`

/** The performance advisor's lints, each a read of the catalogs. */
export const PERFORMANCE_LINTS: LintDefinition[] = [
  {
    name: 'auth_rls_initplan',
    title: 'Auth RLS Initialization Plan',
    level: 'WARN',
    category: 'PERFORMANCE',
    description: 'Detects if calls to `current_setting()` and `auth.<function>()` in RLS policies are being unnecessarily re-evaluated for each row',
    sql: `
      SELECT format('Table \`%s.%s\` has a row level security policy \`%s\` that re-evaluates current_setting() or auth.<function>() for each row. This produces suboptimal query performance at scale. Resolve the issue by replacing \`auth.<function>()\` with \`(select auth.<function>())\`. See [docs](https://supabase.com/docs/guides/database/postgres/row-level-security#call-functions-with-select) for more info.',
                    schema_name, table_name, policy_name) AS detail,
             ${tableMetadata('schema_name', 'table_name')} AS metadata,
             format('auth_rls_init_plan_%s_%s_%s', schema_name, table_name, policy_name) AS cache_key
        FROM (${POLICIES}) p
       WHERE rls_enabled AND ${NOT_SYSTEM('schema_name')} AND (${unwrappedCall('qual')} OR ${unwrappedCall('with_check')})
       ORDER BY schema_name, table_name, policy_name`,
  },
  {
    name: 'unindexed_foreign_keys',
    title: 'Unindexed foreign keys',
    level: 'INFO',
    category: 'PERFORMANCE',
    description: 'Identifies foreign key constraints without a covering index, which can impact database performance.',
    // Covered: a valid index whose leading columns are the key's columns, in order.
    sql: `
      SELECT format('Table \`%s.%s\` has a foreign key \`%s\` without a covering index. This can lead to suboptimal query performance.',
                    n.nspname, c.relname, k.conname) AS detail,
             jsonb_build_object('schema', n.nspname, 'name', c.relname, 'type', 'table', 'fkey_name', k.conname, 'fkey_columns', to_jsonb(k.conkey)) AS metadata,
             format('unindexed_foreign_keys_%s_%s_%s', n.nspname, c.relname, k.conname) AS cache_key
        FROM pg_catalog.pg_constraint k
        JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE k.contype = 'f' AND ${NOT_SYSTEM('n.nspname')} AND ${NOT_FROM_EXTENSION('c.oid')}
         AND NOT EXISTS (
           SELECT 1 FROM pg_catalog.pg_index i
            WHERE i.indrelid = k.conrelid AND i.indisvalid
              AND (string_to_array(i.indkey::text, ' ')::smallint[])[1:array_length(k.conkey, 1)] = k.conkey)
       ORDER BY n.nspname, c.relname, k.conname`,
  },
  {
    name: 'no_primary_key',
    title: 'No Primary Key',
    level: 'INFO',
    category: 'PERFORMANCE',
    description: 'Detects if a table does not have a primary key. Tables without a primary key can be inefficient to interact with at scale.',
    sql: `
      SELECT format('Table \`%s.%s\` does not have a primary key', n.nspname, c.relname) AS detail,
             ${tableMetadata('n.nspname', 'c.relname')} AS metadata,
             format('no_primary_key_%s_%s', n.nspname, c.relname) AS cache_key
        FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'r' AND ${NOT_SYSTEM('n.nspname')} AND ${NOT_FROM_EXTENSION('c.oid')}
         AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)
       ORDER BY n.nspname, c.relname`,
  },
  {
    name: 'duplicate_index',
    title: 'Duplicate Index',
    level: 'WARN',
    category: 'PERFORMANCE',
    description: 'Detects cases where two ore more identical indexes exist.',
    // Identical: the same definition once each index's own name is taken out of it.
    sql: `
      SELECT format('Table \`%s.%s\` has identical indexes %s. Drop all except one of them', schema_name, table_name, array_agg(index_name ORDER BY index_name)) AS detail,
             jsonb_build_object('schema', schema_name, 'name', table_name, 'type', CASE WHEN relkind = 'm' THEN 'materialized view' ELSE 'table' END,
                                'indexes', to_jsonb(array_agg(index_name ORDER BY index_name))) AS metadata,
             format('duplicate_index_%s_%s_%s', schema_name, table_name, array_agg(index_name ORDER BY index_name)) AS cache_key
        FROM (
          SELECT n.nspname AS schema_name, c.relname AS table_name, c.relkind, ic.relname AS index_name,
                 replace(pg_catalog.pg_get_indexdef(i.indexrelid), 'INDEX ' || quote_ident(ic.relname) || ' ON ', 'INDEX ON ') AS definition
            FROM pg_catalog.pg_index i
            JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
            JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind IN ('r', 'm') AND ${NOT_SYSTEM('n.nspname')} AND ${NOT_FROM_EXTENSION('c.oid')}
        ) indexes
       GROUP BY schema_name, table_name, relkind, definition
      HAVING count(*) > 1
       ORDER BY schema_name, table_name`,
  },
  {
    name: 'multiple_permissive_policies',
    title: 'Multiple Permissive Policies',
    level: 'WARN',
    category: 'PERFORMANCE',
    description:
      'Detects if multiple permissive row level security policies are present on a table for the same `role` and `action` (e.g. insert). Multiple permissive policies are suboptimal for performance as each policy must be executed for every relevant query.',
    // A policy for PUBLIC (role 0) applies to every role; the platform's own roles and those that bypass RLS are left out.
    sql: `
      SELECT format('Table \`%s.%s\` has multiple permissive policies for role \`%s\` for action \`%s\`. Policies include \`%s\`',
                    n.nspname, c.relname, r.rolname, action, array_agg(p.polname ORDER BY p.polname)) AS detail,
             ${tableMetadata('n.nspname', 'c.relname')} AS metadata,
             format('multiple_permissive_policies_%s_%s_%s_%s', n.nspname, c.relname, r.rolname, action) AS cache_key
        FROM pg_catalog.pg_policy p
        JOIN pg_catalog.pg_class c ON c.oid = p.polrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_catalog.pg_roles r ON p.polroles @> ARRAY[r.oid] OR p.polroles = ARRAY[0::oid]
        CROSS JOIN LATERAL unnest(CASE p.polcmd WHEN 'r' THEN ARRAY['SELECT'] WHEN 'a' THEN ARRAY['INSERT'] WHEN 'w' THEN ARRAY['UPDATE']
                                                WHEN 'd' THEN ARRAY['DELETE'] ELSE ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE'] END) AS action
       WHERE c.relkind = 'r' AND p.polpermissive AND ${NOT_SYSTEM('n.nspname')} AND ${NOT_FROM_EXTENSION('c.oid')}
         AND NOT r.rolbypassrls AND r.rolname NOT LIKE 'pg\\_%' AND r.rolname NOT LIKE 'supabase%admin' AND r.rolname NOT LIKE 'stratum\\_%'
       GROUP BY n.nspname, c.relname, r.rolname, action
      HAVING count(*) > 1
       ORDER BY n.nspname, c.relname, r.rolname, action`,
  },
]
