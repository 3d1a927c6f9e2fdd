/**
 * postgres_changes bindings as a join sends them ({event, schema, table, filter}), read as Supabase Realtime reads
 * them (docs/research/realtime-protocol.md §4.3), and matched against a change's values.
 */

export type ChangeEvent = 'INSERT' | 'UPDATE' | 'DELETE'
export const FILTER_OPS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'] as const
export type FilterOp = (typeof FILTER_OPS)[number]

export interface ColumnFilter {
  column: string
  op: FilterOp
  /** One value, or the list of `in`. */
  value: string | string[]
  negate: boolean
}

export interface ChangeSubscription {
  /** The id the join reply gives the binding, sent back in each change's `ids`. */
  id: number
  /** null: every event. */
  event: ChangeEvent | null
  /** Patterns: '*' matches any name. */
  schema: string
  table: string
  filters: ColumnFilter[]
  /** `select`: the columns the payload carries (of those the role may select); null for all. */
  select: string[] | null
}

/** A binding the server cannot read: reported as a `system` error, the join itself still succeeds. */
export class SubscriptionParamsError extends Error {}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** Reads one binding; throws SubscriptionParamsError with Supabase's message. */
export function readSubscription(params: Record<string, unknown>, id: number): ChangeSubscription {
  const event = (text(params.event) ?? '*').toUpperCase()
  const schema = text(params.schema)
  const table = text(params.table)
  const filter = text(params.filter)
  if (schema === undefined && table === undefined) {
    throw new SubscriptionParamsError(
      `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${JSON.stringify(params)}`,
    )
  }
  return {
    id,
    event: event === 'INSERT' || event === 'UPDATE' || event === 'DELETE' ? event : null,
    schema: schema ?? 'public',
    table: table ?? '*',
    filters: filter === undefined || filter === '' ? [] : parseFilter(filter),
    select: readSelect(params.select),
  }
}

function readSelect(value: unknown): string[] | null {
  if (value === undefined || value === null) return null
  if (!Array.isArray(value) || value.length === 0 || !value.every((name) => typeof name === 'string' && name !== '')) {
    throw new SubscriptionParamsError('Error parsing `select` params: select must be a list of column names')
  }
  return [...new Set(value as string[])]
}

/** `col=op.value`, several joined by commas (AND) outside quotes and parentheses; `not.` negates. */
export function parseFilter(filter: string): ColumnFilter[] {
  return splitOutside(filter).map((part) => {
    const equals = part.indexOf('=')
    if (equals <= 0) throw filterError([part])
    const column = part.slice(0, equals)
    let rest = part.slice(equals + 1)
    let negate = false
    if (rest.startsWith('not.')) {
      negate = true
      rest = rest.slice(4)
    }
    const dot = rest.indexOf('.')
    const op = dot < 0 ? rest : rest.slice(0, dot)
    const raw = dot < 0 ? '' : rest.slice(dot + 1)
    if (!(FILTER_OPS as readonly string[]).includes(op) || dot < 0) throw filterError([column, rest])
    if (op === 'in') {
      if (!raw.startsWith('(') || !raw.endsWith(')')) throw new SubscriptionParamsError('Error parsing `filter` params: `in` filter value must be wrapped by parentheses')
      return { column, op, value: splitOutside(raw.slice(1, -1), true).map(unquote), negate }
    }
    return { column, op: op as FilterOp, value: unquote(raw), negate }
  })
}

const filterError = (parts: string[]) => new SubscriptionParamsError(`Error parsing \`filter\` params: ${JSON.stringify(parts)}`)

/** Splits on commas outside double quotes and parentheses; an empty segment is an error unless allowed. */
function splitOutside(value: string, allowEmpty = false): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let current = ''
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!
    if (char === '\\' && quoted && i + 1 < value.length) {
      current += char + value[++i]
      continue
    }
    if (char === '"') quoted = !quoted
    else if (!quoted && char === '(') depth++
    else if (!quoted && char === ')') depth--
    if (char === ',' && !quoted && depth === 0) {
      parts.push(current)
      current = ''
    } else current += char
  }
  parts.push(current)
  if (!allowEmpty && parts.some((part) => part === '')) throw new SubscriptionParamsError('Error parsing `filter` params: a filter is empty')
  return parts
}

/** PostgREST-style quoting: "a,b" with backslash escapes. */
function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(.)/g, '$1')
  return value
}

const matchesName = (pattern: string, name: string) => pattern === '*' || pattern === name

/** Whether a change of `event` on schema.table goes to this binding, before its filters are read. */
export function bindingCovers(subscription: ChangeSubscription, event: ChangeEvent, schema: string, table: string): boolean {
  return (subscription.event === null || subscription.event === event) && matchesName(subscription.schema, schema) && matchesName(subscription.table, table)
}

/** How a column's values compare: numbers, booleans, instants, or text. */
export type ValueKind = 'number' | 'boolean' | 'time' | 'text'

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid', 'money'])
const TIME_TYPES = new Set(['timestamp', 'timestamptz', 'date'])

export function valueKind(typeName: string): ValueKind {
  if (NUMBER_TYPES.has(typeName)) return 'number'
  if (typeName === 'bool') return 'boolean'
  if (TIME_TYPES.has(typeName)) return 'time'
  return 'text'
}

function comparable(kind: ValueKind, value: string): number | string | boolean | null {
  switch (kind) {
    case 'number': {
      const number = Number(value)
      return Number.isNaN(number) ? null : number
    }
    case 'boolean':
      return ['t', 'true', 'y', 'yes', 'on', '1'].includes(value.toLowerCase()) ? true : ['f', 'false', 'n', 'no', 'off', '0'].includes(value.toLowerCase()) ? false : null
    case 'time': {
      const time = Date.parse(value.includes('T') ? value : value.replace(' ', 'T'))
      return Number.isNaN(time) ? null : time
    }
    default:
      return value
  }
}

/**
 * Whether a row's text values pass every filter. A column the row lacks or a NULL never matches (the check fails
 * closed, as Supabase's does); values compare by the column's type.
 */
export function passesFilters(filters: ColumnFilter[], row: Record<string, string | null | undefined>, kindOf: (column: string) => ValueKind | undefined): boolean {
  return filters.every((filter) => {
    const kind = kindOf(filter.column)
    const raw = row[filter.column]
    if (kind === undefined || raw === null || raw === undefined) return false
    const actual = comparable(kind, raw)
    if (actual === null) return false
    const wanted = (value: string) => comparable(kind, value)
    let result: boolean
    if (filter.op === 'in') result = (filter.value as string[]).some((value) => wanted(value) === actual)
    else {
      const expected = wanted(filter.value as string)
      if (expected === null) return false
      switch (filter.op) {
        case 'eq': result = actual === expected; break
        case 'neq': result = actual !== expected; break
        case 'lt': result = actual < expected; break
        case 'lte': result = actual <= expected; break
        case 'gt': result = actual > expected; break
        case 'gte': result = actual >= expected; break
      }
    }
    return filter.negate ? !result : result
  })
}
