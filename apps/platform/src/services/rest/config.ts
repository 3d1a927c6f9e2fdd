import type { Queryable } from '../../store/db.js'

/**
 * A project's data API settings, in the Management API's shape (/v1/projects/{ref}/postgrest):
 * comma-separated schema lists as PostgREST's own configuration takes them.
 */
export interface PostgrestSettings {
  /** Exposed schemas, e.g. `public, graphql_public` (PostgREST db-schemas). */
  db_schema: string
  /** Rows a request may return at most (PostgREST db-max-rows). */
  max_rows: number
  /** Schemas added to the search path of every request (PostgREST db-extra-search-path). */
  db_extra_search_path: string
  /** PostgREST's pool size; null = chosen by the platform. */
  db_pool: number | null
}

/** Supabase's defaults for a new project, less graphql_public (our GraphQL does not use that schema). */
export const DEFAULT_POSTGREST_SETTINGS: PostgrestSettings = {
  db_schema: 'public',
  max_rows: 1000,
  db_extra_search_path: 'public, extensions',
  db_pool: null,
}

/** The pool size when db_pool is null: small, since many projects share one machine. */
export const DEFAULT_POSTGREST_POOL = 4

/** `public, graphql_public` -> ['public', 'graphql_public']. */
export function schemaList(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
}

export async function getPostgrestSettings(db: Queryable, ref: string): Promise<PostgrestSettings> {
  const { rows } = await db.query<PostgrestSettings>(
    'SELECT db_schema, max_rows, db_extra_search_path, db_pool FROM project_postgrest_config WHERE project_ref = $1',
    [ref],
  )
  return rows[0] ?? DEFAULT_POSTGREST_SETTINGS
}

/** Stores a change over the current settings; answers the settings now in force. */
export async function updatePostgrestSettings(db: Queryable, ref: string, change: Partial<PostgrestSettings>): Promise<PostgrestSettings> {
  const next = { ...(await getPostgrestSettings(db, ref)), ...change }
  await db.query(
    `INSERT INTO project_postgrest_config (project_ref, db_schema, max_rows, db_extra_search_path, db_pool)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_ref) DO UPDATE SET db_schema = $2, max_rows = $3, db_extra_search_path = $4, db_pool = $5, updated_at = now()`,
    [ref, next.db_schema, next.max_rows, next.db_extra_search_path, next.db_pool],
  )
  return next
}
