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
 * Rows x groups one call checks at most. A backlog (a burst of writes, the stream resuming) arrives as one batch: in
 * one call, thousands of rows for 100 groups ran into the pool's 5 s statement timeout, and the retries with it. Split
 * to this, the calls of a batch run side by side on the pool's connections (the instance's other cores).
 */
export const ROW_CHECKS_PER_CALL = 50_000

/**
 * One round trip for a batch of one table's rows and every subscriber group (realtime.stratum_visible_rows, in the
 * project's realtime schema), or a few side by side for a large batch: each group's column privileges, and, where the
 * table has row-level security and `checkRows`, which rows its policies let it see, by primary key. Run as
 * authenticator, PostgREST's login: the roles a group may take are the ones PostgREST may, and the settings it makes
 * end with the statement.
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
  const perCall = Math.max(1, Math.floor(ROW_CHECKS_PER_CALL / Math.max(1, groups.length)))
  const groupsJson = JSON.stringify(groups)
  const calls: Array<Promise<Array<{ check_index: number; selectable: string[]; visible: number[] }>>> = []
  for (let from = 0; from < keys.length; from += perCall) {
    calls.push(
      pool
        .query<{ check_index: number; selectable: string[]; visible: number[] }>(
          'SELECT check_index, selectable, visible FROM realtime.stratum_visible_rows($1::oid::regclass, $2::text[], $3::jsonb, $4::jsonb, $5::boolean, $6::bigint[])',
          [relationOid, primaryKey, JSON.stringify(keys.slice(from, from + perCall)), groupsJson, checkRows, xids],
        )
        .then(({ rows }) => rows),
    )
  }
  const answers = await Promise.all(calls)
  const result: GroupVisibility[] = groups.map(() => ({ selectable: new Set(), visible: new Set() }))
  answers.forEach((rows, call) => {
    for (const row of rows) {
      const seen = result[row.check_index]
      if (!seen) continue
      // Calls read privileges a moment apart: a column is selectable only if every call found it so.
      seen.selectable = call === 0 ? new Set(row.selectable) : new Set(row.selectable.filter((name) => seen.selectable.has(name)))
      for (const index of row.visible) seen.visible.add(call * perCall + index)
    }
  })
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

/** Whether the table has row-level security on, read now (a missing table counts as on: the key alone is sent). */
export async function readRowSecurity(pool: pg.Pool, relationOid: number): Promise<boolean> {
  const { rows } = await pool.query<{ rls: boolean }>('SELECT c.relrowsecurity AS rls FROM pg_catalog.pg_class c WHERE c.oid = $1::oid', [relationOid])
  return rows[0]?.rls ?? true
}
