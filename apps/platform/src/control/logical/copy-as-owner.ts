import { randomBytes } from 'node:crypto'
import type pg from 'pg'

const IDENT = String.raw`(?:"(?:[^"]|"")+"|[\w$]+)`
const COPY_TARGET = new RegExp(String.raw`^\s*COPY\s+(${IDENT}(?:\s*\.\s*${IDENT})?)\s*`, 'i')

/** The table a `COPY ... FROM stdin` writes and its column list as written (pg_dump always writes one). */
export function copyTarget(sql: string): { table: string; columns: string | null } | null {
  const match = COPY_TARGET.exec(sql)
  if (!match) return null
  let rest = sql.slice(match[0].length)
  if (!rest.startsWith('(')) return { table: match[1]!, columns: null }
  let quoted = false
  for (let i = 1; i < rest.length; i++) {
    const char = rest[i]
    if (char === '"') quoted = !quoted
    else if (char === ')' && !quoted) {
      rest = rest.slice(1, i)
      return { table: match[1]!, columns: rest }
    }
  }
  return null
}

interface TableFacts {
  owner: string
  schema: string
  usable: boolean
  /** Code the table's owner can write may run while rows are written: checks, domains, generated columns, triggers. */
  runsCode: boolean
  /** Per column written, in order: its name and its type as SQL. */
  columns: Array<{ name: string; type: string }>
}

/**
 * What a COPY into `table` could run, read by the restoring superuser (pinned search_path: nothing of the tenant's
 * runs here). A column whose type is not a plain base type or an enum (a domain, a composite, a range) counts as
 * code: their checks and input may call the owner's functions.
 */
async function tableFacts(client: pg.Client, table: string, columns: string | null): Promise<TableFacts | null> {
  const { rows } = await client.query<{ owner: string; schema: string; usable: boolean; runs_code: boolean; columns: Array<{ name: string; type: string }> }>(
    `WITH t AS (SELECT c.oid, c.relowner, c.relnamespace, c.relkind FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass($1::text))
     SELECT o.rolname AS owner, n.nspname AS schema, pg_catalog.has_schema_privilege(o.oid, n.oid, 'USAGE') AS usable,
            t.relkind = 'p'
            OR EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conrelid = t.oid AND k.contype = 'c')
            OR EXISTS (SELECT 1 FROM pg_catalog.pg_trigger g WHERE g.tgrelid = t.oid AND NOT g.tgisinternal AND g.tgenabled <> 'D')
            OR EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
                         JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
                         LEFT JOIN pg_catalog.pg_type el ON el.oid = ty.typelem AND ty.typcategory = 'A'
                        WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
                          AND (a.attgenerated <> '' OR COALESCE(el.typtype, ty.typtype) NOT IN ('b', 'e'))) AS runs_code,
            (SELECT pg_catalog.json_agg(pg_catalog.json_build_object('name', a.attname::text,
                                                                     'type', pg_catalog.format_type(a.atttypid, a.atttypmod)) ORDER BY a.attnum)
               FROM pg_catalog.pg_attribute a
              WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns
       FROM t
       JOIN pg_catalog.pg_roles o ON o.oid = t.relowner
       JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
      WHERE NOT o.rolsuper AND (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = current_user)`,
    [table],
  )
  const row = rows[0]
  if (!row) return null
  let written = row.columns ?? []
  if (columns !== null) {
    // The dump's list, in its order.
    const byName = new Map(written.map((column) => [column.name, column]))
    const listed = splitColumns(columns)
    if (listed.some((name) => !byName.has(name))) throw new Error(`COPY into ${table} names a column the table lacks: ${columns}`)
    written = listed.map((name) => byName.get(name)!)
  }
  return { owner: row.owner, schema: row.schema, usable: row.usable, runsCode: row.runs_code, columns: written }
}

/** `a, "B c", "d""e"` -> ['a', 'B c', 'd"e']: the names as the catalog holds them. */
function splitColumns(list: string): string[] {
  const names: string[] = []
  let current = ''
  let quoted = false
  const push = () => {
    const name = current.trim()
    names.push(name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name)
    current = ''
  }
  for (const char of list) {
    if (char === '"') quoted = !quoted
    if (char === ',' && !quoted) push()
    else current += char
  }
  if (current.trim()) push()
  return names
}

/**
 * Writes a dump's COPY rows so that no function of the table's owner ever runs with the restoring superuser's rights
 * (DESIGN.md "Isolation"). A table nothing runs on is written by the session as it is. Otherwise the rows go to a
 * temporary table of text columns (nothing runs there), then into the table by a SECURITY DEFINER function owned by
 * the table's owner: checks, domains, generated columns and triggers run as the owner, and inside a security-definer
 * function Postgres refuses SET ROLE and SET SESSION AUTHORIZATION, so they cannot get the superuser back (a role SET
 * over the superuser's session could: RESET ROLE). `copy(sql)` streams the rows into the COPY statement given.
 */
export async function copyAsOwner(client: pg.Client, sql: string, copy: (sql: string) => Promise<number>): Promise<number> {
  const target = copyTarget(sql)
  if (!target) return copy(sql)
  const facts = await tableFacts(client, target.table, target.columns)
  if (!facts || !facts.runsCode) return copy(sql)
  const owner = client.escapeIdentifier(facts.owner)
  const schema = client.escapeIdentifier(facts.schema)
  const quoted = facts.columns.map((column) => ({ name: client.escapeIdentifier(column.name), type: column.type }))
  const names = quoted.map((column) => column.name).join(', ')
  const casts = quoted.map((column) => `${column.name}::${column.type}`).join(', ')
  await client.query(`CREATE TEMPORARY TABLE stratum_restore_rows (${quoted.map((column) => `${column.name} text`).join(', ')})`)
  const copied = await copy(`COPY pg_temp.stratum_restore_rows (${names}) FROM stdin`)
  // The schema's grants come at the end of a dump: until then the owner may lack USAGE on it, for this move only.
  if (!facts.usable) await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${owner}`)
  await client.query(`GRANT SELECT ON pg_temp.stratum_restore_rows TO ${owner}`)
  const body = `BEGIN INSERT INTO ${target.table} (${names}) SELECT ${casts} FROM pg_temp.stratum_restore_rows; END`
  // The names are the tenant's: a dollar-quote tag they cannot know, and never one that occurs in them.
  let tag = `$s${randomBytes(8).toString('hex')}$`
  while (body.includes(tag)) tag = `$s${randomBytes(8).toString('hex')}$`
  await client.query(
    `CREATE FUNCTION pg_temp.stratum_restore_move() RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
       AS ${tag}${body}${tag}`,
  )
  await client.query(`ALTER FUNCTION pg_temp.stratum_restore_move() OWNER TO ${owner}`)
  await client.query('SELECT pg_temp.stratum_restore_move()')
  await client.query('DROP FUNCTION pg_temp.stratum_restore_move()')
  await client.query('DROP TABLE pg_temp.stratum_restore_rows')
  if (!facts.usable) await client.query(`REVOKE USAGE ON SCHEMA ${schema} FROM ${owner}`)
  return copied
}
