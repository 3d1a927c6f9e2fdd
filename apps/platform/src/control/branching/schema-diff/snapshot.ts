/**
 * A catalog snapshot: the parts of a project database's schema that branch diff and merge compare
 * (read-snapshot.ts reads it, catalog-objects.ts flattens it into named objects). Plain JSON, stored as
 * JSONB for a branch's base (the schema it was copied with). Definitions are Postgres's own text
 * (pg_get_*def, format_type), read with search_path pinned to pg_catalog so every name in them is
 * schema-qualified and quoted by Postgres itself.
 */
export const SNAPSHOT_FORMAT = 1

export interface CatalogSnapshot {
  format: typeof SNAPSHOT_FORMAT
  schemas: { name: string }[]
  extensions: { name: string; schema: string; version: string }[]
  enums: { schema: string; name: string; values: string[] }[]
  sequences: SequenceDef[]
  tables: TableDef[]
  columns: ColumnDef[]
  constraints: ConstraintDef[]
  indexes: IndexDef[]
  views: ViewDef[]
  functions: FunctionDef[]
  triggers: TriggerDef[]
  policies: PolicyDef[]
  grants: GrantDef[]
  publications: PublicationDef[]
  publicationTables: { publication: string; schema: string; table: string }[]
  /** ALTER DEFAULT PRIVILEGES for tables, sequences and functions: what an object the merge creates gets by itself. */
  defaultPrivileges: DefaultPrivilegeDef[]
  // Parts added after the first snapshots: a base recorded before them lacks them (three-way.ts then compares
  // those kinds as it does without a base).
  domains?: DomainDef[]
  /** Privileges on single columns (GRANT SELECT (a) ON t). */
  columnGrants?: ColumnGrantDef[]
  /** EXECUTE on functions and procedures, PUBLIC's included (a new function gets it unless default privileges say otherwise). */
  routineGrants?: RoutineGrantDef[]
  /** COMMENT ON the compared objects. */
  comments?: CommentDef[]
  /** Owners of compared objects other than `postgres` (the role the merge runs as, which owns what it makes). */
  owners?: OwnerDef[]
  /** What a view, function or table needs made first (pg_depend): the order statements run in (plan.ts). */
  dependencies?: DependencyDef[]
  /** User objects of kinds the comparer cannot write (operators, aggregates, other types...): reported, never lost silently. */
  others?: OtherObjectDef[]
}

/** A compared object by its names, as catalog-objects.ts keys it: kind, then schema, name and (functions) arguments. */
export interface ObjectRef {
  /** 'matview' and 'procedure' key as 'view' and 'function' (the SQL that names them differs). */
  kind: 'schema' | 'enum' | 'domain' | 'sequence' | 'table' | 'view' | 'matview' | 'function' | 'procedure' | 'column' | 'constraint' | 'index' | 'trigger' | 'policy'
  names: string[]
}

export interface DomainDef {
  schema: string
  name: string
  /** format_type of the underlying type. */
  type: string
  notNull: boolean
  default: string | null
  collation: string | null
  /** CHECK constraints by name, pg_get_constraintdef's text. */
  checks: { name: string; definition: string }[]
  order: number
}

export interface ColumnGrantDef {
  schema: string
  table: string
  column: string
  grantee: string | null
  privileges: string[]
}

export interface RoutineGrantDef {
  schema: string
  name: string
  args: string
  /** f function (window functions too), p procedure. */
  kind: string
  grantee: string | null
  privileges: string[]
}

export interface CommentDef {
  target: ObjectRef
  text: string
}

export interface OwnerDef {
  target: ObjectRef
  role: string
}

export interface DependencyDef {
  from: ObjectRef
  to: ObjectRef
}

export interface OtherObjectDef {
  /** `operator`, `aggregate`, `type`, `collation`... as a person reads it. */
  kind: string
  /** pg_identify_object's identity: `public.===(integer,integer)`. */
  identity: string
  /** A digest of its definition: a change shows as a different digest. */
  digest: string
}

export interface DefaultPrivilegeDef {
  /** The role whose new objects get them. */
  role: string
  /** null: in every schema. */
  schema: string | null
  /** 'r' tables and views, 'S' sequences, 'f' functions. */
  kind: string
  /** A role name; null is PUBLIC. */
  grantee: string | null
  privileges: string[]
}

export interface SequenceDef {
  schema: string
  name: string
  type: string
  start: string
  increment: string
  min: string
  max: string
  cache: string
  cycle: boolean
  /** The column it belongs to (serial), or null. */
  ownedBy: { schema: string; table: string; column: string } | null
}

export interface TableDef {
  schema: string
  name: string
  /** 'r' a table, 'p' a partitioned table. */
  kind: 'r' | 'p'
  /** 'p' permanent, 'u' unlogged. */
  persistence: string
  rls: boolean
  forceRls: boolean
  /** pg_get_partkeydef of a partitioned table. */
  partitionKey: string | null
  /** A partition: its parent and bound (FOR VALUES ...). */
  partitionOf: { schema: string; name: string } | null
  partitionBound: string | null
}

export interface ColumnDef {
  schema: string
  table: string
  name: string
  position: number
  /** format_type: `integer`, `character varying(20)`, `public.mood`. */
  type: string
  notNull: boolean
  default: string | null
  /** Expression of a stored generated column. */
  generated: string | null
  /** '' none, 'a' GENERATED ALWAYS AS IDENTITY, 'd' BY DEFAULT. */
  identity: string
  /** A collation other than the type's, already quoted (`"C"`, `public.x`). */
  collation: string | null
}

export interface ConstraintDef {
  schema: string
  table: string
  name: string
  /** p primary key, u unique, c check, f foreign key, x exclusion. */
  type: string
  definition: string
}

export interface IndexDef {
  schema: string
  table: string
  name: string
  definition: string
  /** On a materialized view: made after the views. */
  onView: boolean
}

export interface ViewDef {
  schema: string
  name: string
  materialized: boolean
  definition: string
  options: string[]
  /** Creation order (oid): a view made after another may read it. Not compared. */
  order: number
}

export interface FunctionDef {
  schema: string
  name: string
  /** pg_get_function_identity_arguments: what names the function beside its name. */
  args: string
  /** f function, p procedure, w window. */
  kind: string
  returns: string | null
  /** pg_get_functiondef: a whole CREATE OR REPLACE statement. */
  definition: string
  /** A SQL-standard body or a table's row type in its signature: made after the tables. */
  needsRelations: boolean
  order: number
}

export interface TriggerDef {
  schema: string
  table: string
  name: string
  /** pg_get_triggerdef: a whole CREATE [CONSTRAINT] TRIGGER statement. */
  definition: string
  /** O enabled, D disabled, R replica, A always. */
  enabled: string
}

export interface PolicyDef {
  schema: string
  table: string
  name: string
  permissive: boolean
  /** r select, a insert, w update, d delete, * all. */
  command: string
  /** Role names; null is PUBLIC. Sorted. */
  roles: (string | null)[]
  using: string | null
  check: string | null
}

export interface GrantDef {
  schema: string
  /** The relation (table, view, sequence...). */
  table: string
  /** 'S' for a sequence, else a table-like relation. */
  kind: string
  /** A role name; null is PUBLIC. */
  grantee: string | null
  /** Privilege names, sorted; `SELECT*` when grantable. */
  privileges: string[]
}

export interface PublicationDef {
  name: string
  allTables: boolean
  insert: boolean
  update: boolean
  delete: boolean
  truncate: boolean
}

export const emptySnapshot = (): CatalogSnapshot => ({
  format: SNAPSHOT_FORMAT,
  schemas: [],
  extensions: [],
  enums: [],
  sequences: [],
  tables: [],
  columns: [],
  constraints: [],
  indexes: [],
  views: [],
  functions: [],
  triggers: [],
  policies: [],
  grants: [],
  publications: [],
  publicationTables: [],
  defaultPrivileges: [],
  domains: [],
  columnGrants: [],
  routineGrants: [],
  comments: [],
  owners: [],
  dependencies: [],
  others: [],
})
