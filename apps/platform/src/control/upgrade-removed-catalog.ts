import type { PostgresMajor } from '@stratum/contracts'
import type pg from 'pg'

/**
 * System catalog columns and functions that newer majors removed, which user objects can reference. Taken from the
 * release notes' "Migration to Version 16/17" lists and checked against the shipped catalogs (postgres.bki and
 * system_views.sql of the 15 and 17 packages: these are every column and pg_proc row of 15 that 17 lacks and a user
 * object can name; no data type was removed between them). `since`: the first major without it.
 */
const REMOVED_COLUMNS: { relation: string; column: string; since: number; instead: string }[] = [
  ...['buffers_backend', 'buffers_backend_fsync'].map((column) => ({ relation: 'pg_stat_bgwriter', column, since: 17, instead: 'pg_stat_io counts backend writes' })),
  ...[
    ['checkpoints_timed', 'num_timed'],
    ['checkpoints_req', 'num_requested'],
    ['checkpoint_write_time', 'write_time'],
    ['checkpoint_sync_time', 'sync_time'],
    ['buffers_checkpoint', 'buffers_written'],
  ].map(([column, moved]) => ({ relation: 'pg_stat_bgwriter', column: column!, since: 17, instead: `pg_stat_checkpointer.${moved} has it` })),
  { relation: 'pg_stat_progress_vacuum', column: 'max_dead_tuples', since: 17, instead: 'max_dead_tuple_bytes replaces it' },
  { relation: 'pg_stat_progress_vacuum', column: 'num_dead_tuples', since: 17, instead: 'num_dead_item_ids replaces it' },
  { relation: 'pg_database', column: 'daticulocale', since: 17, instead: 'it is called datlocale' },
  { relation: 'pg_collation', column: 'colliculocale', since: 17, instead: 'it is called colllocale' },
  // pg_stat_statements 1.11 (shipped with 17) renamed its I/O timings.
  { relation: 'pg_stat_statements', column: 'blk_read_time', since: 17, instead: 'it is called shared_blk_read_time' },
  { relation: 'pg_stat_statements', column: 'blk_write_time', since: 17, instead: 'it is called shared_blk_write_time' },
]

const REMOVED_FUNCTIONS: { name: string; since: number; instead: string }[] = [
  ...[
    'pg_stat_get_bgwriter_timed_checkpoints', 'pg_stat_get_bgwriter_requested_checkpoints', 'pg_stat_get_bgwriter_buf_written_checkpoints',
    'pg_stat_get_checkpoint_write_time', 'pg_stat_get_checkpoint_sync_time', 'pg_stat_get_buf_written_backend', 'pg_stat_get_buf_fsync_backend',
  ].map((name) => ({ name, since: 17, instead: 'pg_stat_checkpointer and pg_stat_io have these counts' })),
  { name: 'pg_rotate_logfile_old', since: 17, instead: 'pg_rotate_logfile() replaces it' },
]

/** A user object that names something the target major no longer has: the restore (or later calls) would fail on it. */
export interface RemovedCatalogUse {
  type: 'object_using_removed_catalog_item'
  object_type: 'view' | 'materialized view' | 'rule' | 'function' | 'table'
  schema_name: string
  object_name: string
  /** What it names: `pg_stat_bgwriter.buffers_backend`, `pg_stat_get_buf_written_backend()`. */
  removed_items: string[]
  /** Where the same information is in the target major, for each of them (alike ones once). */
  replacements: string[]
}

// Objects that depend (pg_depend) on a removed column or function: views, materialized views and rules through their
// rewrite rule, functions with a SQL-standard body (BEGIN ATOMIC), column defaults and checks of tables. Objects of
// extensions and of the system schemas are left out (the target's own versions replace them).
const DEPENDENTS = `
WITH removed_column AS (
  SELECT r.item, r.replacement, c.oid AS relid, a.attnum
  FROM jsonb_to_recordset($1::jsonb) AS r(relation text, col text, item text, replacement text)
  JOIN pg_class c ON c.relname = r.relation
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = r.col AND NOT a.attisdropped
  WHERE c.relnamespace = 'pg_catalog'::regnamespace
     OR EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_class'::regclass AND e.objid = c.oid AND e.deptype = 'e')
), removed_function AS (
  SELECT r.item, r.replacement, p.oid
  FROM jsonb_to_recordset($2::jsonb) AS r(name text, item text, replacement text)
  JOIN pg_proc p ON p.proname = r.name AND p.pronamespace = 'pg_catalog'::regnamespace
), uses AS (
  SELECT d.classid, d.objid, rc.item, rc.replacement FROM pg_depend d
  JOIN removed_column rc ON d.refclassid = 'pg_class'::regclass AND d.refobjid = rc.relid AND d.refobjsubid = rc.attnum
  UNION
  SELECT d.classid, d.objid, rf.item, rf.replacement FROM pg_depend d
  JOIN removed_function rf ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = rf.oid
), objects AS (
  SELECT CASE WHEN rw.rulename <> '_RETURN' THEN 'rule' WHEN c.relkind = 'm' THEN 'materialized view' ELSE 'view' END AS object_type,
    c.relnamespace AS nsp, CASE WHEN rw.rulename <> '_RETURN' THEN rw.rulename || ' on ' || c.relname ELSE c.relname END AS object_name,
    c.oid AS owner_oid, 'pg_class'::regclass AS owner_class, u.item, u.replacement
  FROM uses u JOIN pg_rewrite rw ON u.classid = 'pg_rewrite'::regclass AND rw.oid = u.objid JOIN pg_class c ON c.oid = rw.ev_class
  UNION ALL
  SELECT 'function', p.pronamespace, p.proname, p.oid, 'pg_proc'::regclass, u.item, u.replacement
  FROM uses u JOIN pg_proc p ON u.classid = 'pg_proc'::regclass AND p.oid = u.objid
  UNION ALL
  SELECT 'table', c.relnamespace, c.relname, c.oid, 'pg_class'::regclass, u.item, u.replacement
  FROM uses u JOIN pg_attrdef ad ON u.classid = 'pg_attrdef'::regclass AND ad.oid = u.objid JOIN pg_class c ON c.oid = ad.adrelid
  UNION ALL
  SELECT 'table', c.relnamespace, c.relname, c.oid, 'pg_class'::regclass, u.item, u.replacement
  FROM uses u JOIN pg_constraint co ON u.classid = 'pg_constraint'::regclass AND co.oid = u.objid JOIN pg_class c ON c.oid = co.conrelid
)
SELECT DISTINCT o.object_type, n.nspname AS schema_name, o.object_name, o.item, o.replacement
FROM objects o JOIN pg_namespace n ON n.oid = o.nsp
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = o.owner_class AND e.objid = o.owner_oid AND e.deptype = 'e')
ORDER BY 2, 3, 4`

// Functions whose body is a string (SQL or PL/pgSQL): the restore does not check it (pg_dump turns check_function_bodies
// off), so it moves, then fails when called. Found by the names in its text: the relation and the column, or the function.
const FUNCTION_BODIES = `
SELECT DISTINCT 'function' AS object_type, n.nspname AS schema_name, p.proname AS object_name, r.item, r.replacement
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_language l ON l.oid = p.prolang AND l.lanname IN ('sql', 'plpgsql')
JOIN jsonb_to_recordset($1::jsonb) AS r(first text, second text, item text, replacement text)
  ON p.prosrc ~* ('\\m' || r.first || '\\M') AND (r.second IS NULL OR p.prosrc ~* ('\\m' || r.second || '\\M'))
WHERE p.prosqlbody IS NULL AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e')
ORDER BY 2, 3, 4`

/** The user objects of one database that name a column or function the target major no longer has (removed after `source`). */
export async function removedCatalogUses(client: pg.Client, source: PostgresMajor, target: PostgresMajor): Promise<RemovedCatalogUse[]> {
  const applies = (since: number) => since > Number(source) && since <= Number(target)
  const columns = REMOVED_COLUMNS.filter((entry) => applies(entry.since))
  const functions = REMOVED_FUNCTIONS.filter((entry) => applies(entry.since))
  if (!columns.length && !functions.length) return []
  const columnRows = columns.map((entry) => ({ relation: entry.relation, col: entry.column, item: `${entry.relation}.${entry.column}`, replacement: entry.instead }))
  const functionRows = functions.map((entry) => ({ name: entry.name, item: `${entry.name}()`, replacement: entry.instead }))
  const bodyRows = [
    ...columns.map((entry) => ({ first: entry.relation, second: entry.column, item: `${entry.relation}.${entry.column}`, replacement: entry.instead })),
    ...functions.map((entry) => ({ first: entry.name, second: null, item: `${entry.name}()`, replacement: entry.instead })),
  ]
  type Row = Pick<RemovedCatalogUse, 'object_type' | 'schema_name' | 'object_name'> & { item: string; replacement: string }
  const dependents = await client.query<Row>(DEPENDENTS, [JSON.stringify(columnRows), JSON.stringify(functionRows)])
  const bodies = await client.query<Row>(FUNCTION_BODIES, [JSON.stringify(bodyRows)])
  // One entry per object (a view over `SELECT *` names every removed column of its relation).
  const byObject = new Map<string, RemovedCatalogUse>()
  for (const { object_type, schema_name, object_name, item, replacement } of [...dependents.rows, ...bodies.rows]) {
    const key = JSON.stringify([object_type, schema_name, object_name])
    const use = byObject.get(key) ?? { type: 'object_using_removed_catalog_item', object_type, schema_name, object_name, removed_items: [], replacements: [] }
    if (!use.removed_items.includes(item)) use.removed_items.push(item)
    if (!use.replacements.includes(replacement)) use.replacements.push(replacement)
    byObject.set(key, use)
  }
  return [...byObject.values()]
}

/** A use as a sentence for people. */
export function removedCatalogUseText(use: RemovedCatalogUse, target: PostgresMajor): string {
  const what = use.object_type === 'rule' ? `The rule ${use.object_name} (schema ${use.schema_name})` : `The ${use.object_type} ${use.schema_name}.${use.object_name}`
  const items = use.removed_items.length > 1 ? `${use.removed_items.slice(0, -1).join(', ')} and ${use.removed_items.at(-1)}` : use.removed_items[0]
  return `${what} uses ${items}, which Postgres ${target} no longer has (${use.replacements.join('; ')}): change or drop it before upgrading`
}
