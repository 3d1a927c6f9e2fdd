import { z } from 'zod'
import { QueryBoolean, QueryCount, SchemaList } from './meta.js'

/**
 * The Database pages' listings, `GET /platform/pg-meta/{ref}/{functions,triggers,types,indexes,publications,roles,
 * policies,column-privileges}`: the field names and value shapes of @supabase/postgres-meta 0.99.0's answers, and
 * the query parameters its routes read. Tables are in meta.ts.
 */

const SchemaQuery = {
  include_system_schemas: QueryBoolean('include_system_schemas').default(false),
  included_schemas: SchemaList('included_schemas').optional(),
  excluded_schemas: SchemaList('excluded_schemas').optional(),
}
const PageQuery = {
  limit: QueryCount('limit').optional(),
  offset: QueryCount('offset').optional(),
}

/** functions, triggers, indexes, policies, column-privileges: included schemas win; system ones only when asked. */
export const PgMetaSchemaListQuery = z.object({ ...SchemaQuery, ...PageQuery })
export type PgMetaSchemaListQuery = z.output<typeof PgMetaSchemaListQuery>

export const PgMetaTypesQuery = PgMetaSchemaListQuery.extend({
  /** The array type Postgres makes beside each type (`_mood`). */
  include_array_types: QueryBoolean('include_array_types').default(false),
  /** The row types of tables, views and materialized views. */
  include_table_types: QueryBoolean('include_table_types').default(false),
})
export type PgMetaTypesQuery = z.output<typeof PgMetaTypesQuery>

export const PgMetaRolesQuery = z.object({
  /** The predefined `pg_*` roles. */
  include_default_roles: QueryBoolean('include_default_roles').default(false),
  ...PageQuery,
})
export type PgMetaRolesQuery = z.output<typeof PgMetaRolesQuery>

export const PgMetaPublicationsQuery = z.object(PageQuery)
export type PgMetaPublicationsQuery = z.output<typeof PgMetaPublicationsQuery>

export const PgMetaFunctionArg = z.object({
  mode: z.enum(['in', 'out', 'inout', 'variadic', 'table']),
  /** '' when the argument has no name. */
  name: z.string(),
  type_id: z.number(),
  /** Input arguments only; null for out and table columns (as postgres-meta answers for them). */
  has_default: z.boolean().nullable(),
})

export const PgMetaFunction = z.object({
  id: z.number(),
  schema: z.string(),
  name: z.string(),
  language: z.string(),
  /** The body ('' for internal functions). */
  definition: z.string(),
  /** CREATE OR REPLACE FUNCTION ... as pg_get_functiondef prints it (the symbol for internal functions). */
  complete_statement: z.string(),
  args: z.array(PgMetaFunctionArg),
  argument_types: z.string(),
  identity_argument_types: z.string(),
  return_type_id: z.number(),
  return_type: z.string(),
  return_type_relation_id: z.number().nullable(),
  is_set_returning_function: z.boolean(),
  prorows: z.number().nullable(),
  behavior: z.enum(['IMMUTABLE', 'STABLE', 'VOLATILE']),
  security_definer: z.boolean(),
  /** `SET name = value` clauses (search_path...), or null. */
  config_params: z.record(z.string(), z.string()).nullable(),
})
export type PgMetaFunction = z.infer<typeof PgMetaFunction>

export const PgMetaTrigger = z.object({
  id: z.number(),
  table_id: z.number(),
  enabled_mode: z.enum(['ORIGIN', 'REPLICA', 'ALWAYS', 'DISABLED']),
  name: z.string(),
  table: z.string(),
  schema: z.string(),
  /** The WHEN expression. */
  condition: z.string().nullable(),
  orientation: z.enum(['ROW', 'STATEMENT']),
  activation: z.enum(['BEFORE', 'AFTER', 'INSTEAD OF']),
  /** INSERT, DELETE, UPDATE (a trigger on TRUNCATE alone is not listed, as in information_schema.triggers). */
  events: z.array(z.string()),
  function_schema: z.string(),
  function_name: z.string(),
  function_args: z.array(z.string()),
})
export type PgMetaTrigger = z.infer<typeof PgMetaTrigger>

export const PgMetaType = z.object({
  id: z.number(),
  name: z.string(),
  schema: z.string(),
  /** format_type(): `mood`, `public.mood` when not on the search path. */
  format: z.string(),
  enums: z.array(z.string()),
  /** A composite type's fields. */
  attributes: z.array(z.object({ name: z.string(), type_id: z.number() })),
  comment: z.string().nullable(),
  type_relation_id: z.number().nullable(),
})
export type PgMetaType = z.infer<typeof PgMetaType>

export const PgMetaIndex = z.object({
  id: z.number(),
  table_id: z.number(),
  schema: z.string(),
  number_of_attributes: z.number(),
  number_of_key_attributes: z.number(),
  is_unique: z.boolean(),
  is_primary: z.boolean(),
  is_exclusion: z.boolean(),
  is_immediate: z.boolean(),
  is_clustered: z.boolean(),
  is_valid: z.boolean(),
  check_xmin: z.boolean(),
  is_ready: z.boolean(),
  is_live: z.boolean(),
  is_replica_identity: z.boolean(),
  /** The table's column numbers (0 for an expression). */
  key_attributes: z.array(z.number()),
  collation: z.array(z.number()),
  class: z.array(z.number()),
  options: z.array(z.number()),
  /** The WHERE of a partial index, as Postgres stores it (a node tree). */
  index_predicate: z.string().nullable(),
  comment: z.string().nullable(),
  index_definition: z.string(),
  access_method: z.string(),
  /** The index's own columns, in order. */
  index_attributes: z.array(z.object({ attribute_number: z.number(), attribute_name: z.string(), data_type: z.string() })),
})
export type PgMetaIndex = z.infer<typeof PgMetaIndex>

export const PgMetaPublication = z.object({
  id: z.number(),
  name: z.string(),
  owner: z.string(),
  publish_insert: z.boolean(),
  publish_update: z.boolean(),
  publish_delete: z.boolean(),
  publish_truncate: z.boolean(),
  /** The tables added to it by name; null for a publication FOR ALL TABLES. */
  tables: z.array(z.object({ id: z.number(), name: z.string(), schema: z.string() })).nullable(),
})
export type PgMetaPublication = z.infer<typeof PgMetaPublication>

export const PgMetaRole = z.object({
  id: z.number(),
  name: z.string(),
  is_superuser: z.boolean(),
  can_create_db: z.boolean(),
  can_create_role: z.boolean(),
  inherit_role: z.boolean(),
  can_login: z.boolean(),
  is_replication_role: z.boolean(),
  can_bypass_rls: z.boolean(),
  active_connections: z.number(),
  /** max_connections when the role has no limit of its own. */
  connection_limit: z.number(),
  /** Always masked: no password or verifier ever leaves the database. */
  password: z.literal('********'),
  /** As Postgres prints a timestamptz ('2030-01-01 00:00:00+00'), or null. */
  valid_until: z.string().nullable(),
  config: z.record(z.string(), z.string()).nullable(),
})
export type PgMetaRole = z.infer<typeof PgMetaRole>

export const PgMetaPolicy = z.object({
  id: z.number(),
  schema: z.string(),
  table: z.string(),
  table_id: z.number(),
  name: z.string(),
  action: z.enum(['PERMISSIVE', 'RESTRICTIVE']),
  /** Role names, sorted; 'public' for everyone. */
  roles: z.array(z.string()),
  command: z.enum(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'ALL']),
  /** USING */
  definition: z.string().nullable(),
  /** WITH CHECK */
  check: z.string().nullable(),
})
export type PgMetaPolicy = z.infer<typeof PgMetaPolicy>

export const PgMetaColumnPrivileges = z.object({
  /** `<table oid>.<attnum>`, as a column's id in the tables listing. */
  column_id: z.string(),
  relation_schema: z.string(),
  relation_name: z.string(),
  column_name: z.string(),
  /** Granted on the column or on its whole relation; grantee 'PUBLIC' for everyone. */
  privileges: z.array(
    z.object({
      grantor: z.string(),
      grantee: z.string(),
      privilege_type: z.enum(['SELECT', 'INSERT', 'UPDATE', 'REFERENCES']),
      is_grantable: z.boolean(),
    }),
  ),
})
export type PgMetaColumnPrivileges = z.infer<typeof PgMetaColumnPrivileges>
