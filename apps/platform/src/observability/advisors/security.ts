import { NOT_FROM_EXTENSION, NOT_SYSTEM, POLICIES, type LintDefinition } from './lint.js'

/** Either API role may read the relation: what the data API would serve. */
const API_READABLE = (oid: string) => `(pg_catalog.has_table_privilege('anon', ${oid}, 'SELECT') OR pg_catalog.has_table_privilege('authenticated', ${oid}, 'SELECT'))`

/** user_metadata read from the JWT (auth.jwt() or the request.jwt.claims setting). */
const USER_METADATA = `'(auth\\.jwt\\(\\)|current_setting\\([^)]*request\\.jwt\\.claims[^)]*\\)).*user_metadata'`

const tableMetadata = (schema: string, name: string) => `jsonb_build_object('schema', ${schema}, 'name', ${name}, 'type', 'table')`

/** The security advisor's lints, each a read of the catalogs. */
export const SECURITY_LINTS: LintDefinition[] = [
  {
    name: 'rls_disabled_in_public',
    title: 'RLS Disabled in Public',
    level: 'ERROR',
    category: 'SECURITY',
    description: 'Detects cases where row level security (RLS) has not been enabled on tables in schemas exposed to PostgREST',
    exposed: true,
    sql: `
      SELECT format('Table \`%s.%s\` is public, but RLS has not been enabled.', n.nspname, c.relname) AS detail,
             ${tableMetadata('n.nspname', 'c.relname')} AS metadata,
             format('rls_disabled_in_public_%s_%s', n.nspname, c.relname) AS cache_key
        FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND NOT c.relrowsecurity AND ${API_READABLE('c.oid')}
         AND n.nspname = ANY ($1::text[]) AND ${NOT_SYSTEM('n.nspname')}
       ORDER BY n.nspname, c.relname`,
  },
  {
    name: 'policy_exists_rls_disabled',
    title: 'Policy Exists RLS Disabled',
    level: 'ERROR',
    category: 'SECURITY',
    description: 'Detects cases where row level security (RLS) policies have been created, but RLS has not been enabled for the underlying table.',
    sql: `
      SELECT format('Table \`%s.%s\` has RLS policies but RLS is not enabled on the table. Policies include %s.', schema_name, table_name,
                    array_agg(policy_name ORDER BY policy_name)) AS detail,
             ${tableMetadata('schema_name', 'table_name')} AS metadata,
             format('policy_exists_rls_disabled_%s_%s', schema_name, table_name) AS cache_key
        FROM (${POLICIES}) p
       WHERE NOT rls_enabled AND ${NOT_SYSTEM('schema_name')} AND ${NOT_FROM_EXTENSION('table_oid')}
       GROUP BY schema_name, table_name
       ORDER BY schema_name, table_name`,
  },
  {
    name: 'rls_enabled_no_policy',
    title: 'RLS Enabled No Policy',
    level: 'INFO',
    category: 'SECURITY',
    description: 'Detects cases where row level security (RLS) has been enabled on a table but no RLS policies have been created.',
    sql: `
      SELECT format('Table \`%s.%s\` has RLS enabled, but no policies exist', n.nspname, c.relname) AS detail,
             ${tableMetadata('n.nspname', 'c.relname')} AS metadata,
             format('rls_enabled_no_policy_%s_%s', n.nspname, c.relname) AS cache_key
        FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND c.relrowsecurity
         AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_policy p WHERE p.polrelid = c.oid)
         AND ${NOT_SYSTEM('n.nspname')} AND ${NOT_FROM_EXTENSION('c.oid')}
       ORDER BY n.nspname, c.relname`,
  },
  {
    name: 'security_definer_view',
    title: 'Security Definer View',
    level: 'ERROR',
    category: 'SECURITY',
    description:
      'Detects views defined with the SECURITY DEFINER property. These views enforce Postgres permissions and row level security policies (RLS) of the view creator, rather than that of the querying user',
    exposed: true,
    // Every view runs as its owner unless it says security_invoker (Postgres 15 and later, all the majors Stratum runs).
    sql: `
      SELECT format('View \`%s.%s\` is defined with the SECURITY DEFINER property', n.nspname, c.relname) AS detail,
             jsonb_build_object('schema', n.nspname, 'name', c.relname, 'type', 'view') AS metadata,
             format('security_definer_view_%s_%s', n.nspname, c.relname) AS cache_key
        FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'v' AND ${API_READABLE('c.oid')}
         AND n.nspname = ANY ($1::text[]) AND ${NOT_SYSTEM('n.nspname')} AND ${NOT_FROM_EXTENSION('c.oid')}
         AND NOT (lower(coalesce(c.reloptions::text, '{}'))::text[]
                  && ARRAY['security_invoker=1', 'security_invoker=true', 'security_invoker=yes', 'security_invoker=on'])
       ORDER BY n.nspname, c.relname`,
  },
  {
    name: 'function_search_path_mutable',
    title: 'Function Search Path Mutable',
    level: 'WARN',
    category: 'SECURITY',
    description: 'Detects functions where the search_path parameter is not set.',
    // md5 of the body tells overloads apart in the cache key, as splinter does.
    sql: `
      SELECT format('Function \`%s.%s\` has a role mutable search_path', n.nspname, p.proname) AS detail,
             jsonb_build_object('schema', n.nspname, 'name', p.proname, 'type', 'function') AS metadata,
             format('function_search_path_mutable_%s_%s_%s', n.nspname, p.proname, md5(p.prosrc)) AS cache_key
        FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
       WHERE p.prokind IN ('f', 'p') AND ${NOT_SYSTEM('n.nspname')} AND ${NOT_FROM_EXTENSION('p.oid')}
         AND NOT EXISTS (SELECT 1 FROM unnest(coalesce(p.proconfig, '{}')) AS setting WHERE setting LIKE 'search\\_path=%')
       ORDER BY n.nspname, p.proname, p.oid`,
  },
  {
    name: 'rls_references_user_metadata',
    title: 'RLS references user metadata',
    level: 'ERROR',
    category: 'SECURITY',
    description: 'Detects when Supabase Auth user_metadata is referenced insecurely in a row level security (RLS) policy.',
    // A text match, as splinter's: user_metadata read from the JWT, which end users can edit.
    sql: `
      SELECT format('Table \`%s.%s\` has a row level security policy \`%s\` that references Supabase Auth \`user_metadata\`. \`user_metadata\` is editable by end users and should never be used in a security context.',
                    schema_name, table_name, policy_name) AS detail,
             ${tableMetadata('schema_name', 'table_name')} AS metadata,
             format('rls_references_user_metadata_%s_%s_%s', schema_name, table_name, policy_name) AS cache_key
        FROM (${POLICIES}) p
       WHERE ${NOT_SYSTEM('schema_name')}
         AND (qual ~ ${USER_METADATA} OR with_check ~ ${USER_METADATA})
       ORDER BY schema_name, table_name, policy_name`,
  },
]
