import { SYSTEM_SCHEMAS } from './pg-meta.js'
import type { Queryable } from './queryable.js'

/**
 * Catalog reads the tables listing (pg-meta.ts) does not cover: schemas, functions and row level
 * security policies, for the AI tools' schema level (ai/tools/schema-tools.ts). Each is one set-based
 * query; `schemas` null means every schema but the system ones.
 */

/** Schemas that hold no user objects worth listing: Postgres's own and the toast/temp namespaces. */
const HIDDEN_SCHEMA = `(n.nspname = ANY($1::text[]) OR n.nspname LIKE 'pg\\_%')`

export interface SchemaEntry {
  name: string
  owner: string
  comment: string | null
}

export async function listSchemas(db: Queryable): Promise<SchemaEntry[]> {
  const { rows } = await db.query<SchemaEntry>(
    `SELECT n.nspname AS name, pg_get_userbyid(n.nspowner) AS owner, obj_description(n.oid, 'pg_namespace') AS comment
     FROM pg_namespace n WHERE NOT ${HIDDEN_SCHEMA} ORDER BY n.nspname`,
    [SYSTEM_SCHEMAS],
  )
  return rows
}

export interface FunctionEntry {
  schema: string
  name: string
  kind: 'function' | 'procedure'
  arguments: string
  return_type: string | null
  language: string
  security_definer: boolean
  volatility: 'immutable' | 'stable' | 'volatile'
  comment: string | null
}

/** Functions and procedures users wrote: not aggregates or window functions, not those an extension owns. */
export async function listFunctions(db: Queryable, schemas: string[] | null): Promise<FunctionEntry[]> {
  const { rows } = await db.query<FunctionEntry>(
    `SELECT n.nspname AS schema, p.proname AS name, CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END AS kind,
       pg_get_function_arguments(p.oid) AS arguments,
       CASE WHEN p.prokind = 'p' THEN NULL ELSE pg_get_function_result(p.oid) END AS return_type,
       l.lanname AS language, p.prosecdef AS security_definer,
       CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END AS volatility,
       obj_description(p.oid, 'pg_proc') AS comment
     FROM pg_proc p
     JOIN pg_namespace n ON n.oid = p.pronamespace
     JOIN pg_language l ON l.oid = p.prolang
     WHERE p.prokind IN ('f', 'p') AND NOT ${HIDDEN_SCHEMA} AND ($2::text[] IS NULL OR n.nspname = ANY($2))
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
     ORDER BY n.nspname, p.proname, 4`,
    [SYSTEM_SCHEMAS, schemas],
  )
  return rows
}

export interface PolicyEntry {
  schema: string
  table: string
  name: string
  /** PERMISSIVE or RESTRICTIVE. */
  permissive: string
  command: string
  roles: string[]
  using: string | null
  with_check: string | null
}

export async function listPolicies(db: Queryable, schemas: string[] | null): Promise<PolicyEntry[]> {
  const { rows } = await db.query<PolicyEntry>(
    `SELECT schemaname::text AS schema, tablename::text AS table, policyname::text AS name, permissive, cmd AS command,
       roles::text[] AS roles, qual AS using, with_check
     FROM pg_policies
     WHERE NOT (schemaname = ANY($1::text[]) OR schemaname LIKE 'pg\\_%') AND ($2::text[] IS NULL OR schemaname = ANY($2))
     ORDER BY schemaname, tablename, policyname`,
    [SYSTEM_SCHEMAS, schemas],
  )
  return rows
}
