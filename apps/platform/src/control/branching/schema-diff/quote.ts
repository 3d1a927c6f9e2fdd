import { quoteIdentifier, quoteLiteral, RESERVED_KEYWORDS } from '@stratum/sql'

/**
 * Names in the SQL the comparer writes. Every name comes from a tenant's catalog and is treated as hostile:
 * a name is written bare only when it is plain lower-case letters, digits and underscores and no keyword
 * Postgres restricts (then nothing in it can end the name); anything else is double-quoted with its quotes
 * doubled. Keywords missing from the lists below could at worst make a statement fail, never change it.
 */
const RESTRICTED_KEYWORDS: ReadonlySet<string> = new Set([
  // kwlist.h COL_NAME_KEYWORD
  'between', 'bigint', 'bit', 'boolean', 'char', 'character', 'coalesce', 'dec', 'decimal', 'exists', 'extract', 'float',
  'greatest', 'grouping', 'inout', 'int', 'integer', 'interval', 'json', 'json_array', 'json_arrayagg', 'json_exists',
  'json_object', 'json_objectagg', 'json_query', 'json_scalar', 'json_serialize', 'json_table', 'json_value', 'least',
  'merge_action', 'national', 'nchar', 'none', 'normalize', 'nullif', 'numeric', 'out', 'overlay', 'position', 'precision',
  'real', 'row', 'setof', 'smallint', 'substring', 'time', 'timestamp', 'treat', 'trim', 'values', 'varchar', 'xmlattributes',
  'xmlconcat', 'xmlelement', 'xmlexists', 'xmlforest', 'xmlnamespaces', 'xmlparse', 'xmlpi', 'xmlroot', 'xmlserialize', 'xmltable',
  // kwlist.h TYPE_FUNC_NAME_KEYWORD
  'authorization', 'binary', 'collation', 'concurrently', 'cross', 'current_schema', 'freeze', 'full', 'ilike', 'inner', 'is',
  'isnull', 'join', 'left', 'like', 'natural', 'notnull', 'outer', 'overlaps', 'right', 'similar', 'tablesample', 'verbose',
])

export function ident(name: string): string {
  if (/^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED_KEYWORDS.has(name) && !RESTRICTED_KEYWORDS.has(name)) return name
  return quoteIdentifier(name)
}

/** `schema.name`, each part quoted as needed. */
export const qualified = (schema: string, name: string): string => `${ident(schema)}.${ident(name)}`

/** A role in GRANT, REVOKE and policies: null is PUBLIC. */
export const roleName = (role: string | null): string => (role === null ? 'PUBLIC' : ident(role))

export const literal = quoteLiteral
