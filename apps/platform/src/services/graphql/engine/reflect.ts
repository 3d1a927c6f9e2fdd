import type pg from 'pg'
import type { Catalog, ColumnInfo, ForeignKeyInfo, FunctionInfo, SchemaInfo, TableInfo, TypeInfo } from './catalog.js'
import { parseDirectives } from './directives.js'

/**
 * Reads the exposed schemas' catalog on a connection already running as the request's role (the caller
 * opened a transaction with that role): privileges decide what is listed, as pg_graphql decides its schema
 * per role. A few statements, run only when a (project, role) schema is built.
 */
export async function reflectCatalog(client: pg.ClientBase, schemaNames: string[]): Promise<Catalog> {
  const schemas = (
    await client.query<{ oid: string; name: string; comment: string | null }>(
      `SELECT n.oid::int8 AS oid, n.nspname AS name, obj_description(n.oid, 'pg_namespace') AS comment
         FROM pg_namespace n WHERE n.nspname = ANY($1::text[]) AND has_schema_privilege(n.oid, 'USAGE')`,
      [schemaNames],
    )
  ).rows.map((row): SchemaInfo => ({ oid: Number(row.oid), name: row.name, directives: parseDirectives(row.comment) }))
  const schemaOids = schemas.map((schema) => schema.oid)
  const tables = await readTables(client, schemaOids)
  const tableOids = tables.map((table) => table.oid)
  const foreignKeys = await readForeignKeys(client, tableOids)
  const functions = await readFunctions(client, schemaOids)
  const wanted = new Set<number>()
  for (const table of tables) for (const column of table.columns) wanted.add(column.typeOid)
  for (const fn of functions) {
    wanted.add(fn.returnTypeOid)
    for (const arg of fn.args) wanted.add(arg.typeOid)
  }
  // Every enum of the exposed schemas is in the schema, used or not (as pg_graphql lists them).
  const enums = await client.query<{ oid: string }>(`SELECT oid::int8 AS oid FROM pg_type WHERE typtype = 'e' AND typnamespace = ANY($1::oid[])`, [schemaOids])
  for (const row of enums.rows) wanted.add(Number(row.oid))
  const types = await readTypes(client, [...wanted])
  return { schemas, tables, foreignKeys, functions, types }
}

interface TableRow {
  oid: string
  schema: string
  schema_oid: string
  name: string
  kind: string
  row_type: string
  comment: string | null
  rls: boolean
  can_select: boolean
  can_insert: boolean
  can_update: boolean
  can_delete: boolean
  pkey: string[] | null
  uniques: (string[] | null)[]
  columns: ColumnRow[] | null
}

interface ColumnRow {
  name: string
  type: number
  notnull: boolean
  hasdef: boolean
  readonly: boolean
  maxchars: number | null
  comment: string | null
  sel: boolean
  ins: boolean
  upd: boolean
}

async function readTables(client: pg.ClientBase, schemaOids: number[]): Promise<TableInfo[]> {
  const { rows } = await client.query<TableRow>(
    `SELECT c.oid::int8 AS oid, n.nspname AS schema, n.oid::int8 AS schema_oid, c.relname AS name, c.relkind AS kind,
            c.reltype::int8 AS row_type, obj_description(c.oid, 'pg_class') AS comment, c.relrowsecurity AS rls,
            has_any_column_privilege(c.oid, 'SELECT') AS can_select, has_any_column_privilege(c.oid, 'INSERT') AS can_insert,
            has_any_column_privilege(c.oid, 'UPDATE') AS can_update, has_table_privilege(c.oid, 'DELETE') AS can_delete,
            (SELECT array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum))
               FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey::int2[])
              WHERE i.indrelid = c.oid AND i.indisprimary) AS pkey,
            (SELECT coalesce(jsonb_agg(cols), '[]') FROM (
               SELECT (SELECT jsonb_agg(a.attname ORDER BY array_position(i.indkey::int2[], a.attnum)) FROM pg_attribute a
                        WHERE a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey::int2[])) AS cols
                 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL) u) AS uniques,
            (SELECT jsonb_agg(jsonb_build_object('name', a.attname, 'type', a.atttypid::int8, 'notnull', a.attnotnull,
                      'hasdef', a.atthasdef OR a.attidentity <> '', 'readonly', a.attgenerated <> '' OR a.attidentity = 'a',
                      'maxchars', CASE WHEN a.atttypmod > 4 AND a.atttypid IN (1042, 1043) THEN a.atttypmod - 4 END,
                      'comment', col_description(c.oid, a.attnum),
                      'sel', has_column_privilege(c.oid, a.attnum, 'SELECT'), 'ins', has_column_privilege(c.oid, a.attnum, 'INSERT'),
                      'upd', has_column_privilege(c.oid, a.attnum, 'UPDATE')) ORDER BY a.attnum)
               FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relnamespace = ANY($1::oid[]) AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
      ORDER BY n.nspname, c.relname`,
    [schemaOids],
  )
  return rows.map((row) => {
    const directives = parseDirectives(row.comment)
    const columns: ColumnInfo[] = (row.columns ?? []).map((column) => ({
      name: column.name,
      typeOid: Number(column.type),
      notNull: column.notnull,
      hasDefault: column.hasdef,
      readOnly: column.readonly,
      maxChars: column.maxchars ?? null,
      directives: parseDirectives(column.comment),
      canSelect: column.sel,
      canInsert: column.ins && !column.readonly,
      canUpdate: column.upd && !column.readonly,
    }))
    const names = new Set(columns.map((column) => column.name))
    const declared = directives.primary_key_columns?.every((name) => names.has(name)) ? directives.primary_key_columns : null
    return {
      oid: Number(row.oid),
      schema: row.schema,
      schemaOid: Number(row.schema_oid),
      name: row.name,
      kind: row.kind,
      rowTypeOid: Number(row.row_type),
      directives,
      columns,
      primaryKey: row.pkey ?? (declared && declared.length > 0 ? declared : null),
      uniqueKeys: row.uniques.filter((cols): cols is string[] => Array.isArray(cols)),
      rlsEnabled: row.rls,
      canSelect: row.can_select,
      canInsert: row.can_insert,
      canUpdate: row.can_update,
      canDelete: row.can_delete,
    }
  })
}

interface ForeignKeyRow {
  name: string
  local: string
  foreign: string
  comment: string | null
  local_columns: string[]
  foreign_columns: string[]
}

async function readForeignKeys(client: pg.ClientBase, tableOids: number[]): Promise<ForeignKeyInfo[]> {
  const { rows } = await client.query<ForeignKeyRow>(
    `SELECT con.conname AS name, con.conrelid::int8 AS local, con.confrelid::int8 AS foreign, obj_description(con.oid, 'pg_constraint') AS comment,
            array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(num, pos)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.pos) AS local_columns,
            array(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(num, pos)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.pos) AS foreign_columns
       FROM pg_constraint con
      WHERE con.contype = 'f' AND con.conrelid = ANY($1::oid[]) AND con.confrelid = ANY($1::oid[])
      ORDER BY con.conname`,
    [tableOids],
  )
  return rows.map((row) => ({
    name: row.name,
    localTable: Number(row.local),
    foreignTable: Number(row.foreign),
    localColumns: row.local_columns,
    foreignColumns: row.foreign_columns,
    directives: parseDirectives(row.comment),
  }))
}

interface FunctionRow {
  oid: string
  schema: string
  schema_oid: string
  name: string
  volatility: string
  retset: boolean
  rettype: string
  ndefaults: number
  argtypes: string[] | null
  argnames: (string | null)[] | null
  argmodes: string[] | null
  variadic: boolean
  comment: string | null
}

async function readFunctions(client: pg.ClientBase, schemaOids: number[]): Promise<FunctionInfo[]> {
  const { rows } = await client.query<FunctionRow>(
    `SELECT p.oid::int8 AS oid, n.nspname AS schema, n.oid::int8 AS schema_oid, p.proname AS name, p.provolatile AS volatility,
            p.proretset AS retset, p.prorettype::int8 AS rettype, p.pronargdefaults AS ndefaults,
            p.proargtypes::oid[]::int8[] AS argtypes, p.proargnames AS argnames, p.proargmodes::text[] AS argmodes,
            p.provariadic <> 0 AS variadic, obj_description(p.oid, 'pg_proc') AS comment
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE p.pronamespace = ANY($1::oid[]) AND p.prokind = 'f' AND has_function_privilege(p.oid, 'EXECUTE')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      ORDER BY n.nspname, p.proname`,
    [schemaOids],
  )
  return rows.map((row) => {
    const types: number[] = (row.argtypes ?? []).map(Number)
    const names: (string | null)[] = row.argnames ?? []
    const modes: string[] | null = row.argmodes
    const firstDefault = types.length - Number(row.ndefaults)
    return {
      oid: Number(row.oid),
      schema: row.schema,
      schemaOid: Number(row.schema_oid),
      name: row.name,
      volatility: row.volatility,
      returnsSet: row.retset,
      returnTypeOid: Number(row.rettype),
      args: types.map((typeOid, index) => ({ name: names[index] || null, typeOid, hasDefault: index >= firstDefault })),
      plainArgs: !row.variadic && (modes === null || modes.every((mode) => mode === 'i')),
      directives: parseDirectives(row.comment),
    }
  })
}

interface TypeRow {
  oid: string
  schema: string
  name: string
  kind: string
  category: string
  elem: string | null
  base: string | null
  rel: string | null
  sql: string
  labels: string[] | null
  comment: string | null
  usable: boolean
}

async function readTypes(client: pg.ClientBase, oids: number[]): Promise<Map<number, TypeInfo>> {
  const types = new Map<number, TypeInfo>()
  let pending = oids.filter((oid) => oid > 0)
  // Arrays name their element type and domains their base type: read those too, a level at a time.
  while (pending.length > 0) {
    const { rows } = await client.query<TypeRow>(
      `SELECT t.oid::int8 AS oid, n.nspname AS schema, t.typname AS name, t.typtype AS kind, t.typcategory AS category,
              nullif(t.typelem, 0)::int8 AS elem, nullif(t.typbasetype, 0)::int8 AS base, nullif(t.typrelid, 0)::int8 AS rel,
              CASE WHEN t.oid = 1042 THEN 'bpchar' WHEN t.oid = 1560 THEN 'varbit'
                   WHEN n.nspname = 'pg_catalog' THEN format_type(t.oid, NULL)
                   WHEN t.typcategory = 'A' THEN quote_ident(en.nspname) || '.' || quote_ident(e.typname) || '[]'
                   ELSE quote_ident(n.nspname) || '.' || quote_ident(t.typname) END AS sql,
              CASE WHEN t.typtype = 'e' THEN array(SELECT enumlabel::text FROM pg_enum WHERE enumtypid = t.oid ORDER BY enumsortorder) END AS labels,
              obj_description(t.oid, 'pg_type') AS comment, has_type_privilege(t.oid, 'USAGE') AS usable
         FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
         LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typcategory = 'A' LEFT JOIN pg_namespace en ON en.oid = e.typnamespace
        WHERE t.oid = ANY($1::oid[])`,
      [pending],
    )
    const next = new Set<number>()
    for (const row of rows) {
      const info: TypeInfo = {
        oid: Number(row.oid),
        schema: row.schema,
        name: row.name,
        kind: row.kind,
        category: row.category,
        elementOid: row.category === 'A' && row.elem ? Number(row.elem) : null,
        baseOid: row.kind === 'd' && row.base ? Number(row.base) : null,
        relationOid: row.rel ? Number(row.rel) : null,
        sql: row.sql,
        enumValues: row.labels ?? [],
        directives: parseDirectives(row.comment),
        usable: row.usable,
      }
      types.set(info.oid, info)
      for (const more of [info.elementOid, info.baseOid]) if (more && !types.has(more)) next.add(more)
    }
    pending = [...next]
  }
  return types
}
