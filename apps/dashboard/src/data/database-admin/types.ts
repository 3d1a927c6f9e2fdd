/** The rows of catalog-sql.ts's reads. */

export interface IndexStats {
  id: number
  name: string
  table: string
  size_bytes: number
  size: string
  scans: number
  /** The constraint the index enforces: p primary key, u unique, x exclusion; null for a plain index. */
  constraint: 'p' | 'u' | 'x' | null
}

export interface RoleCatalogEntry {
  name: string
  /** pg_roles.rolconnlimit as stored: -1 for none (postgres-meta shows max_connections instead). */
  connection_limit: number
  member_of: string[]
  /** The `postgres` role may alter and drop it (a role the project made; never the platform's). */
  manageable: boolean
}

export interface RoleCatalog {
  /** `postgres` has CREATEROLE (Postgres 16 and later on this platform). */
  can_create_roles: boolean
  roles: RoleCatalogEntry[]
}

export interface RoleGrants {
  /** USAGE granted to the role by name. */
  usage: boolean
  /** The role may use the schema, by name, through PUBLIC or through membership. */
  usage_effective: boolean
  tables: Array<{ id: number; name: string; privileges: string[] }>
}
