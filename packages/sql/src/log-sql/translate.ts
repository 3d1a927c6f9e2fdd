/**
 * A log query (BigQuery- or ClickHouse-flavoured, as the Logs Explorer and the official MCP server write
 * them) translated into one SELECT over the platform's log store. The query is parsed by the real Postgres
 * parser and rebuilt from a whitelist (expressions.ts); it is never concatenated. Whatever it says, the
 * platform's own conditions come first: the project, the time window and, for a per-source table, the
 * source, all bound parameters of an inner SELECT the user's query can only read from.
 */
import { LOG_QUERY_MAX_ROWS, LOG_QUERY_WITH_OR_SUBQUERY_ERROR, LOG_SOURCES, LOGS_UNIFIED_TABLE } from '@stratum/contracts'
import { quoteIdentifier } from '../literals.js'
import { ExpressionTranslator, LogQueryError, nodeKind, stringsOf, type Expr, type Node, type Scope } from './expressions.js'

/** The platform's table of log lines (apps/platform/src/store/migrations/019_log_store.sql). */
export const LOG_STORE_TABLE = 'log_events'
const MAX_OFFSET = 100_000

export interface LogQueryWindow {
  projectRef: string
  /** ISO timestamps: the window is start <= timestamp < end. */
  start: string
  end: string
}

export interface TranslatedLogQuery {
  sql: string
  params: unknown[]
}

interface Target {
  name: string
  sql: string
  /**
   * For a timestamp item (answered as microseconds): the timestamp itself, which orders the same. ORDER BY uses
   * it where Postgres allows (no GROUP BY, DISTINCT or HAVING), so `order by timestamp desc limit 100` walks
   * the (project_ref, source, timestamp) index and stops after the rows it needs, instead of sorting every
   * line of the window by an expression no index has.
   */
  orderSql?: string
}

function fromItems(items: Node[]): Node[] {
  return items.flatMap((item) => {
    const [kind, body] = nodeKind(item)
    if (kind !== 'JoinExpr') return [item]
    // Only cross joins (or joins ON TRUE) with unnest: in the log store, unnest names a part of metadata.
    if (body.usingClause || body.isNatural || (body.quals && body.quals.A_Const?.boolval?.boolval !== true)) {
      throw new LogQueryError('Joins are only supported as CROSS JOIN UNNEST(...)')
    }
    if (body.jointype !== 'JOIN_INNER' && body.jointype !== 'JOIN_LEFT') throw new LogQueryError('Joins are only supported as CROSS JOIN UNNEST(...)')
    return fromItems([body.larg, body.rarg])
  })
}

/** Reads the FROM clause into the scope; answers the source to filter on (null for the unified `logs` table). */
function readFrom(from: Node[] | undefined, scope: Scope): string | null | undefined {
  if (!from?.length) return undefined
  let source: string | null | undefined
  for (const item of fromItems(from)) {
    const [kind, body] = nodeKind(item)
    if (kind === 'RangeSubselect') throw new LogQueryError(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
    if (kind === 'RangeVar') {
      if (source !== undefined) throw new LogQueryError('A log query reads one source: join it with UNNEST, not with another table')
      const name = String(body.relname)
      if (body.schemaname || body.catalogname) throw new LogQueryError(`Unknown source ${[body.catalogname, body.schemaname, name].filter(Boolean).join('.')}`)
      if (name === LOGS_UNIFIED_TABLE) source = null
      else if ((LOG_SOURCES as readonly string[]).includes(name)) source = name
      else throw new LogQueryError(`Unknown source ${name}: use one of ${LOG_SOURCES.join(', ')} or ${LOGS_UNIFIED_TABLE}`)
      scope.hasTable = true
      scope.tableNames.add(name)
      if (body.alias?.aliasname) scope.tableNames.add(body.alias.aliasname)
      continue
    }
    if (kind === 'RangeFunction') {
      const call = body.functions?.[0]?.List?.items?.[0]?.FuncCall as Node | undefined
      const name = call ? stringsOf(call.funcname).join('.') : ''
      if (body.functions?.length !== 1 || name !== 'unnest' || call!.args?.length !== 1 || body.lateral || body.ordinality) {
        throw new LogQueryError('Only UNNEST(...) may be joined to a log source')
      }
      if (source === undefined) throw new LogQueryError('UNNEST must follow the log source it reads')
      const alias = body.alias?.aliasname as string | undefined
      if (!alias) throw new LogQueryError('UNNEST needs a name: CROSS JOIN UNNEST(metadata) AS m')
      const [argKind, arg] = nodeKind(call!.args[0])
      if (argKind !== 'ColumnRef') throw new LogQueryError('UNNEST reads metadata or a part of it')
      scope.unnests.set(alias, unnestPath(stringsOf(arg.fields), scope))
      continue
    }
    throw new LogQueryError(`${kind} is not supported in FROM`)
  }
  return source
}

/** The metadata path an UNNEST argument names (metadata, m.request, ...). */
function unnestPath(fields: string[], scope: Scope): string[] {
  let names = fields
  if (names.length > 1 && scope.tableNames.has(names[0]!)) names = names.slice(1)
  const [first, ...rest] = names as [string, ...string[]]
  const base = scope.unnests.get(first)
  if (base) return [...base, ...rest]
  if (first === 'metadata' || first === 'log_attributes') return rest
  throw new LogQueryError(`UNNEST reads metadata or a part of it, not ${fields.join('.')}`)
}

function integerConstant(node: Node | undefined, what: string): number | null {
  if (!node) return null
  const [kind, body] = nodeKind(node)
  if (kind === 'A_Const' && body.isnull) return null // LIMIT ALL / LIMIT NULL
  if (kind !== 'A_Const' || (body.ival === undefined && !body.sval && !body.fval)) throw new LogQueryError(`${what} must be a whole number`)
  const value = Number(body.ival?.ival ?? 0)
  if (!Number.isSafeInteger(value) || value < 0 || body.sval || body.fval) throw new LogQueryError(`${what} must be a whole number`)
  return value
}

function outputName(node: Node, index: number): string {
  const [kind, body] = nodeKind(node)
  if (kind === 'ColumnRef') {
    const fields = body.fields as Node[]
    return String(fields[fields.length - 1]?.String?.sval ?? `f${index}_`)
  }
  if (kind === 'A_Indirection') {
    const last = (body.indirection as Node[]).at(-1)
    const key = last?.A_Indices?.uidx?.A_Const?.sval?.sval ?? last?.String?.sval
    if (key) return String(key).split('.').at(-1)!
  }
  if (kind === 'FuncCall') return stringsOf(body.funcname).join('_')
  return `f${index}_` // BigQuery's name for an unnamed column
}

/** A timestamp answers as microseconds since the epoch, as the Logs Explorer's results have it. */
function output(e: Expr, x: ExpressionTranslator): string {
  if (e.type === 'timestamp') return `floor(extract(epoch from ${e.sql}) * 1000000)::float8`
  if (e.literal !== undefined) return x.emit(e)
  return e.sql
}

/**
 * GROUP BY / ORDER BY items: a position, a name of the select list (by position), or an expression. With
 * `byTimestamp`, a select item that is a timestamp is referred to by its timestamp (Target.orderSql).
 */
function reference(node: Node, targets: Target[], x: ExpressionTranslator, what: string, byTimestamp = false): string {
  const item = (index: number) => (byTimestamp && targets[index]!.orderSql) || String(index + 1)
  const [kind, body] = nodeKind(node)
  if (kind === 'A_Const' && body.ival !== undefined && !body.sval) {
    const position = Number(body.ival.ival ?? 0)
    if (!Number.isInteger(position) || position < 1 || position > targets.length) throw new LogQueryError(`${what} position ${position} is not in the select list`)
    return item(position - 1)
  }
  if (kind === 'ColumnRef' && body.fields.length === 1 && body.fields[0].String) {
    const position = targets.findIndex((target) => target.name === body.fields[0].String.sval)
    if (position >= 0) return item(position)
  }
  const e = x.expr(node)
  // The same expression as a select item (a metadata path is bound once): its position, so Postgres sees one expression.
  const same = e.literal === undefined ? targets.findIndex((target) => target.sql === e.sql) : -1
  if (same >= 0) return item(same)
  return e.type === 'json' ? e.text! : x.emit(e)
}

function targetOf(name: string, e: Expr, x: ExpressionTranslator): Target {
  return { name, sql: output(e, x), ...(e.type === 'timestamp' && e.literal === undefined ? { orderSql: e.sql } : {}) }
}

function selectList(list: Node[], scope: Scope, x: ExpressionTranslator): Target[] {
  const targets: Target[] = []
  list.forEach((item, index) => {
    const target = item.ResTarget as Node | undefined
    if (!target?.val) throw new LogQueryError('The select list could not be read')
    const fields = target.val.ColumnRef?.fields as Node[] | undefined
    if (fields?.some((field) => 'A_Star' in field)) {
      if (!scope.hasTable) throw new LogQueryError('SELECT * needs a FROM')
      for (const column of ['id', 'timestamp', 'event_message', 'metadata']) targets.push(targetOf(column, x.column([column]), x))
      return
    }
    targets.push(targetOf(target.name || outputName(target.val, index), x.expr(target.val), x))
  })
  return targets
}

/** Translates one parsed statement (a libpg_query parse tree node) into SQL over the log store. */
export function translateLogStatement(stmt: Node, window: LogQueryWindow): TranslatedLogQuery {
  const [kind, select] = nodeKind(stmt)
  if (kind !== 'SelectStmt') throw new LogQueryError('Log queries are read-only: only SELECT is supported')
  if (select.withClause) throw new LogQueryError(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
  if (select.op && select.op !== 'SETOP_NONE') throw new LogQueryError('UNION, INTERSECT and EXCEPT are not supported in log queries')
  if (select.valuesLists || select.intoClause || select.lockingClause || select.windowClause) {
    throw new LogQueryError('Only SELECT ... FROM a log source is supported')
  }
  const distinct = select.distinctClause as Node[] | undefined
  if (distinct?.some((item) => Object.keys(item).length > 0)) throw new LogQueryError('DISTINCT ON is not supported in log queries')

  // $1..$3 are the platform's conditions; a query without FROM reads no table and binds no window.
  const params: unknown[] = select.fromClause?.length ? [window.projectRef, window.start, window.end] : []
  const scope: Scope = { hasTable: false, tableNames: new Set(), unnests: new Map() }
  const x = new ExpressionTranslator(scope, params)
  const source = readFrom(select.fromClause, scope)
  const sourceCondition = source ? ` AND source = ${x.param(source, 'text')}` : ''

  const targets = selectList(select.targetList ?? [], scope, x)
  if (!targets.length) throw new LogQueryError('The query selects nothing')
  const where = select.whereClause ? x.asBool(x.expr(select.whereClause)) : null
  const groupBy = ((select.groupClause as Node[] | undefined) ?? []).map((item) => reference(item, targets, x, 'GROUP BY'))
  const having = select.havingClause ? x.asBool(x.expr(select.havingClause)) : null
  const orderBy = ((select.sortClause as Node[] | undefined) ?? []).map((item) => {
    const sort = item.SortBy as Node
    const direction = sort.sortby_dir === 'SORTBY_DESC' ? ' DESC' : sort.sortby_dir === 'SORTBY_ASC' ? ' ASC' : ''
    const nulls = sort.sortby_nulls === 'SORTBY_NULLS_FIRST' ? ' NULLS FIRST' : sort.sortby_nulls === 'SORTBY_NULLS_LAST' ? ' NULLS LAST' : ''
    return reference(sort.node, targets, x, 'ORDER BY', !groupBy.length && !having && !distinct) + direction + nulls
  })
  const limit = Math.min(integerConstant(select.limitCount, 'LIMIT') ?? LOG_QUERY_MAX_ROWS, LOG_QUERY_MAX_ROWS)
  const offset = integerConstant(select.limitOffset, 'OFFSET')
  if (offset !== null && offset > MAX_OFFSET) throw new LogQueryError(`OFFSET can be at most ${MAX_OFFSET}`)

  const from = scope.hasTable
    ? ` FROM (SELECT id, timestamp, event_message, source, metadata FROM ${LOG_STORE_TABLE}` +
      ` WHERE project_ref = $1::text AND timestamp >= $2::timestamptz AND timestamp < $3::timestamptz${sourceCondition}) AS l`
    : ''
  const sql = [
    `SELECT ${distinct ? 'DISTINCT ' : ''}${targets.map((target) => `${target.sql} AS ${quoteIdentifier(target.name)}`).join(', ')}${from}`,
    where ? ` WHERE ${where}` : '',
    groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '',
    having ? ` HAVING ${having}` : '',
    orderBy.length ? ` ORDER BY ${orderBy.join(', ')}` : '',
    ` LIMIT ${limit}`,
    offset ? ` OFFSET ${offset}` : '',
  ].join('')
  return { sql, params }
}
