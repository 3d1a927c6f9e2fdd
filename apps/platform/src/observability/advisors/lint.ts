import type { Lint, LintCategory, LintLevel, LintName } from '@stratum/contracts'

/**
 * One advisor lint: its fixed texts (the names, levels, titles and remediation links Supabase's
 * splinter lints use, so that clients and agents that know them recognise them) and the catalog query
 * that finds the objects it concerns. The query answers one row per finding with `detail`, `metadata`
 * (jsonb) and `cache_key`; with `exposed` it is given the schemas of the project's data API as $1.
 */
export interface LintDefinition {
  name: LintName
  title: string
  level: LintLevel
  category: LintCategory
  description: string
  sql: string
  exposed?: boolean
}

export interface LintRow {
  detail: string
  metadata: Lint['metadata']
  cache_key: string
}

/** Where the linter's documentation for a lint lives (its number and name), as the hosted platform links it. */
export const remediation = (slug: string) => `https://supabase.com/docs/guides/database/database-linter?lint=${slug}`

/**
 * Schemas that belong to the platform or to extensions, never the user's to fix: splinter's list, and
 * Stratum's own (auth, storage, extensions, the migration history) are in it already. A constant, so it
 * is written into the queries as a literal.
 */
const SYSTEM_SCHEMAS = [
  '_timescaledb_cache', '_timescaledb_catalog', '_timescaledb_config', '_timescaledb_internal', 'auth', 'cron', 'extensions', 'graphql',
  'graphql_public', 'information_schema', 'net', 'pgmq', 'pgroonga', 'pgsodium', 'pgsodium_masks', 'pgtle', 'pgbouncer', 'pg_catalog',
  'pg_toast', 'realtime', 'repack', 'storage', 'supabase_functions', 'supabase_migrations', 'tiger', 'topology', 'vault',
]
export const NOT_SYSTEM = (column: string) => `${column} NOT IN (${SYSTEM_SCHEMAS.map((name) => `'${name}'`).join(', ')}) AND ${column} NOT LIKE 'pg\\_temp\\_%'`

/** Objects an extension created (pg_depend 'e'): the extension's to manage, left out of every lint. */
export const NOT_FROM_EXTENSION = (oid: string) => `NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.objid = ${oid} AND d.deptype = 'e')`

/**
 * Each policy with its expressions as Postgres writes them back (pg_get_expr, what pg_policies shows):
 * `auth.uid()` unwrapped, `( SELECT auth.uid() AS uid)` wrapped. Used by the policy lints of both kinds.
 */
export const POLICIES = `
  SELECT n.nspname AS schema_name, c.relname AS table_name, c.oid AS table_oid, c.relrowsecurity AS rls_enabled, p.polname AS policy_name,
         coalesce(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') AS qual,
         coalesce(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), '') AS with_check
    FROM pg_catalog.pg_policy p
    JOIN pg_catalog.pg_class c ON c.oid = p.polrelid
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace`

export function toLint(definition: LintDefinition, row: LintRow): Lint {
  return {
    name: definition.name,
    title: definition.title,
    level: definition.level,
    facing: 'EXTERNAL',
    categories: [definition.category],
    description: definition.description,
    detail: row.detail,
    remediation: remediation(`${NUMBERS[definition.name]}_${definition.name}`),
    metadata: row.metadata,
    cache_key: row.cache_key,
  }
}

/** splinter's numbers, part of each lint's documentation link. */
const NUMBERS: Partial<Record<LintName, string>> = {
  unindexed_foreign_keys: '0001',
  auth_rls_initplan: '0003',
  no_primary_key: '0004',
  multiple_permissive_policies: '0006',
  policy_exists_rls_disabled: '0007',
  rls_enabled_no_policy: '0008',
  duplicate_index: '0009',
  security_definer_view: '0010',
  function_search_path_mutable: '0011',
  rls_disabled_in_public: '0013',
  rls_references_user_metadata: '0015',
}
