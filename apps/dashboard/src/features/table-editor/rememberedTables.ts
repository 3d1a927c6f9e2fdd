/**
 * The names of the tables this browser opened in the table editor, by project and id: a table URL holds the id, which
 * does not survive a major upgrade or a table made again, so a stale id can still say which table it meant.
 */
const KEY_PREFIX = 'stratum.table-editor.names.'
/** Per project: enough for every table a member works with, bounded so storage does not grow. */
const MAX_TABLES = 200

export interface RememberedTable {
  schema: string
  name: string
}

function read(ref: string): Record<string, RememberedTable> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(KEY_PREFIX + ref) ?? '{}')
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, RememberedTable>) : {}
  } catch {
    return {}
  }
}

export function rememberTable(ref: string, id: number, table: RememberedTable): void {
  const known = read(ref)
  delete known[id]
  known[id] = { schema: table.schema, name: table.name }
  const ids = Object.keys(known)
  for (const stale of ids.slice(0, Math.max(0, ids.length - MAX_TABLES))) delete known[stale]
  try {
    window.localStorage.setItem(KEY_PREFIX + ref, JSON.stringify(known))
  } catch {
    // Storage full or off: the reminder is a convenience.
  }
}

export function rememberedTable(ref: string, id: number): RememberedTable | undefined {
  const table = read(ref)[id]
  return table && typeof table.schema === 'string' && typeof table.name === 'string' ? table : undefined
}
