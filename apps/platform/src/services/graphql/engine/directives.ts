/**
 * pg_graphql's comment directives: `@graphql({...})` anywhere in a comment on a schema, table, view,
 * column, function, type or constraint. A malformed directive is ignored (as a comment without one).
 */

export interface ForeignKeyDirective {
  local_name?: string
  local_columns: string[]
  foreign_name?: string
  foreign_schema: string
  foreign_table: string
  foreign_columns: string[]
}

export interface Directives {
  name?: string
  description?: string
  inflect_names?: boolean
  introspection?: boolean
  max_rows?: number
  totalCount?: { enabled?: boolean }
  aggregate?: { enabled?: boolean }
  primary_key_columns?: string[]
  foreign_keys?: ForeignKeyDirective[]
  local_name?: string
  foreign_name?: string
  mappings?: Record<string, string>
}

const MARK = '@graphql('

export function parseDirectives(comment: string | null | undefined): Directives {
  if (!comment) return {}
  const start = comment.indexOf(MARK)
  if (start < 0) return {}
  const end = comment.lastIndexOf(')')
  if (end <= start) return {}
  try {
    const value: unknown = JSON.parse(comment.slice(start + MARK.length, end))
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
    return sanitize(value as Record<string, unknown>)
  } catch {
    return {}
  }
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
const strings = (value: unknown) => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined)

/** Only the keys and shapes the engine reads: anything else in the comment is not trusted. */
function sanitize(raw: Record<string, unknown>): Directives {
  const out: Directives = {}
  if (str(raw.name)) out.name = raw.name as string
  if (str(raw.description) !== undefined) out.description = raw.description as string
  if (typeof raw.inflect_names === 'boolean') out.inflect_names = raw.inflect_names
  if (typeof raw.introspection === 'boolean') out.introspection = raw.introspection
  if (typeof raw.max_rows === 'number' && Number.isInteger(raw.max_rows) && raw.max_rows > 0) out.max_rows = raw.max_rows
  const total = raw.totalCount as { enabled?: unknown } | undefined
  if (total && typeof total === 'object' && typeof total.enabled === 'boolean') out.totalCount = { enabled: total.enabled }
  const aggregate = raw.aggregate as { enabled?: unknown } | undefined
  if (aggregate && typeof aggregate === 'object' && typeof aggregate.enabled === 'boolean') out.aggregate = { enabled: aggregate.enabled }
  if (strings(raw.primary_key_columns)) out.primary_key_columns = raw.primary_key_columns as string[]
  if (str(raw.local_name)) out.local_name = raw.local_name as string
  if (str(raw.foreign_name)) out.foreign_name = raw.foreign_name as string
  if (raw.mappings && typeof raw.mappings === 'object' && !Array.isArray(raw.mappings)) {
    out.mappings = Object.fromEntries(Object.entries(raw.mappings).filter(([, v]) => typeof v === 'string')) as Record<string, string>
  }
  if (Array.isArray(raw.foreign_keys)) {
    out.foreign_keys = raw.foreign_keys.flatMap((item: unknown) => {
      const fk = item as Record<string, unknown>
      if (!fk || typeof fk !== 'object') return []
      const local = strings(fk.local_columns)
      const foreign = strings(fk.foreign_columns)
      if (!local || !foreign || !str(fk.foreign_schema) || !str(fk.foreign_table) || local.length !== foreign.length) return []
      return [{ local_columns: local, foreign_columns: foreign, foreign_schema: fk.foreign_schema as string, foreign_table: fk.foreign_table as string,
        local_name: str(fk.local_name), foreign_name: str(fk.foreign_name) }]
    })
  }
  return out
}
