/** A table, view or other relation as the list shows it (project-shell spec entity fields). */
export interface EditorEntity {
  id: number
  schema: string
  name: string
  type: 'table' | 'partitioned table' | 'foreign table' | 'view' | 'materialized view'
  rls_enabled: boolean
  live_rows_estimate: number
}

/** A column (the spec's table column fields, mapped from the catalog). */
export interface EditorColumn {
  position: number
  name: string
  /** format_type: `integer`, `character varying(20)`, `text[]`, `mood`. */
  dataType: string
  /** The type's own name: `int4`, `_text`, `mood`. */
  format: string
  /** pg_type.typcategory: N numeric, S string, B boolean, D date/time, A array, E enum, U user... */
  typeCategory: string
  elementFormat: string | null
  defaultValue: string | null
  isNullable: boolean
  isIdentity: boolean
  isGeneratable: boolean
  isGenerated: boolean
  enum: string[]
  comment: string | null
}

export interface EditorRelationship {
  constraint_name: string
  source_column_name: string
  target_table_schema: string
  target_table_name: string
  target_column_name: string
  /** pg_constraint action codes: a no action, r restrict, c cascade, n set null, d set default. */
  deletion_action: string
  update_action: string
}

export interface EditorPolicy {
  name: string
  command: 'ALL' | 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE'
  permissive: boolean
  roles: string[]
  using: string | null
  with_check: string | null
}

export interface EditorRelation extends EditorEntity {
  comment: string | null
  rls_forced: boolean
  /** In the supabase_realtime publication: Realtime streams its changes. */
  realtime_enabled: boolean
  columns: EditorColumn[]
  primary_keys: string[]
  unique_constraints: Array<{ name: string; column: string }>
  relationships: EditorRelationship[]
  policies: EditorPolicy[]
}

export interface EditorChoices {
  enums: Array<{ schema: string; name: string }>
  roles: string[]
}

/** A table of the supabase_realtime publication. */
export interface RealtimeTable {
  id: number
  schema: string
  name: string
  rls_enabled: boolean
  replica_identity: 'default' | 'full' | 'index' | 'nothing'
}
