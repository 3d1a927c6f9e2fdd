import type pg from 'pg'

/** Subscribers that see alike: one role and one set of JWT claims. */
export interface ClaimsGroup {
  role: string
  /** The claims as JSON text (request.jwt.claims). */
  claims: string
}

export interface GroupVisibility {
  /** Columns the group may select. */
  selectable: Set<string>
  /** Indexes (into the keys checked) of the rows it may see. */
  visible: Set<number>
}

/** What a change's payload needs of its table, read from the catalog once per shape of the relation. */
export interface RelationInfo {
  rls: boolean
  primaryKey: string[]
  typeNames: Map<number, string>
}

/**
 * One round trip for a batch of one table's rows and every subscriber group (realtime.stratum_visible_rows, in the
 * project's realtime schema): each group's column privileges, and, where the table has row-level security and
 * `checkRows`, which rows its policies let it see, by primary key. Run as authenticator, PostgREST's login: the roles
 * a group may take are the ones PostgREST may, and the settings it makes end with the statement.
 */
export async function checkVisibility(
  pool: pg.Pool,
  relationOid: number,
  primaryKey: string[],
  keys: Array<Array<string | null>>,
  groups: ClaimsGroup[],
  checkRows: boolean,
  /** The transactions the rows come from: the check waits until a new snapshot sees them (schema.ts). */
  xids: number[],
): Promise<GroupVisibility[]> {
  const { rows } = await pool.query<{ check_index: number; selectable: string[]; visible: number[] }>(
    'SELECT check_index, selectable, visible FROM realtime.stratum_visible_rows($1::oid::regclass, $2::text[], $3::jsonb, $4::jsonb, $5::boolean, $6::bigint[])',
    [relationOid, primaryKey, JSON.stringify(keys), JSON.stringify(groups), checkRows, xids],
  )
  const result: GroupVisibility[] = groups.map(() => ({ selectable: new Set(), visible: new Set() }))
  for (const row of rows) result[row.check_index] = { selectable: new Set(row.selectable), visible: new Set(row.visible) }
  return result
}

/** The table's row-level security, primary key and the names of the types its change carries. */
export async function readRelationInfo(pool: pg.Pool, relationOid: number, typeOids: number[]): Promise<RelationInfo> {
  const { rows } = await pool.query<{ rls: boolean; primary_key: string[]; types: Record<string, string> | null }>(
    `SELECT c.relrowsecurity AS rls,
            COALESCE((SELECT pg_catalog.array_agg(a.attname::text ORDER BY k.ord)
                                   FROM pg_catalog.pg_index i
                                  CROSS JOIN LATERAL pg_catalog.unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                                   JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                                  WHERE i.indrelid = c.oid AND i.indisprimary), '{}') AS primary_key,
            (SELECT pg_catalog.json_object_agg(t.oid, t.typname) FROM pg_catalog.pg_type t WHERE t.oid = ANY($2::oid[])) AS types
       FROM pg_catalog.pg_class c WHERE c.oid = $1::oid`,
    [relationOid, typeOids],
  )
  const row = rows[0]
  return {
    rls: row?.rls ?? true,
    primaryKey: row?.primary_key ?? [],
    typeNames: new Map(Object.entries(row?.types ?? {}).map(([oid, name]) => [Number(oid), name])),
  }
}
