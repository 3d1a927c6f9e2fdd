/**
 * Expressions of a log query, from the Postgres parse tree to SQL over the log store. Only the node kinds,
 * operators, functions and columns named here pass; everything else is refused with a sentence. Values
 * never enter the SQL text: strings (patterns, paths, timestamps, intervals) become bound parameters and
 * numbers are re-printed from their parsed value.
 */
import { LOG_QUERY_ILIKE_ERROR, LOG_QUERY_WITH_OR_SUBQUERY_ERROR } from '@stratum/contracts'
import { requiredText } from './regex-literal.js'

export class LogQueryError extends Error {}

// libpg_query's JSON parse tree: every shape is checked where it is read, so its nodes are left untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = Record<string, any>
export type ExprType = 'text' | 'number' | 'timestamp' | 'json' | 'bool' | 'interval'

/** A translated expression; a string literal stays a literal until its context gives it a type. */
export interface Expr {
  type: ExprType
  sql: string
  /** The text form of a metadata path (`#>>`), beside its jsonb form in `sql`. */
  text?: string
  literal?: string
  /** A number literal as written (used to compare with a metadata value as JSON). */
  numberLiteral?: boolean
}

/** The columns of the log store a query may name (the table is read through the alias `l`). */
export const LOG_COLUMNS: Record<string, ExprType> = { id: 'text', timestamp: 'timestamp', event_message: 'text', source: 'text', metadata: 'json' }
/** Names that stand for the whole metadata object: BigQuery's `metadata`, ClickHouse's `log_attributes`. */
const METADATA_NAMES = new Set(['metadata', 'log_attributes'])
const DATE_PARTS = new Set(['microsecond', 'millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'])
const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>='])
const ARITHMETIC = new Set(['+', '-', '*', '/'])
const INTERVAL = /^\s*-?\d+(\.\d+)?\s*(microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s*$/i
// Postgres' interval typmod bits (`interval '1' hour`), for the unit written outside the string.
const INTERVAL_FIELDS: Record<number, string> = { 2: 'month', 4: 'year', 8: 'day', 1024: 'hour', 2048: 'minute', 4096: 'second' }
const CASTS: Record<string, { sql: string; type: ExprType }> = {
  string: { sql: 'text', type: 'text' }, text: { sql: 'text', type: 'text' }, varchar: { sql: 'text', type: 'text' },
  int64: { sql: 'bigint', type: 'number' }, int4: { sql: 'bigint', type: 'number' }, int8: { sql: 'bigint', type: 'number' },
  integer: { sql: 'bigint', type: 'number' }, bigint: { sql: 'bigint', type: 'number' }, float64: { sql: 'float8', type: 'number' },
  float8: { sql: 'float8', type: 'number' }, numeric: { sql: 'numeric', type: 'number' }, bool: { sql: 'boolean', type: 'bool' },
  boolean: { sql: 'boolean', type: 'bool' }, timestamp: { sql: 'timestamptz', type: 'timestamp' }, timestamptz: { sql: 'timestamptz', type: 'timestamp' },
}

/** What names mean in this query: the source table's aliases and each `unnest(...) as name`. */
export interface Scope {
  hasTable: boolean
  tableNames: Set<string>
  /** alias -> path inside metadata */
  unnests: Map<string, string[]>
}

export function nodeKind(node: Node | undefined): [string, Node] {
  if (!node || typeof node !== 'object') throw new LogQueryError('The query could not be read')
  const [kind] = Object.keys(node)
  return [kind!, node[kind!] as Node]
}

export function stringsOf(list: Node[] | undefined): string[] {
  return (list ?? []).map((item) => {
    const [kind, body] = nodeKind(item)
    if (kind !== 'String') throw new LogQueryError('Only plain names are supported in log queries')
    return body.sval as string
  })
}

/** IN (...) and BETWEEN carry their operands as a List node. */
function listItems(node: Node | Node[] | undefined): Node[] {
  const items = Array.isArray(node) ? node : (node?.List?.items as Node[] | undefined)
  if (!items) throw new LogQueryError('IN needs a list of values')
  return items
}

export class ExpressionTranslator {
  readonly params: unknown[]
  private readonly paths = new Map<string, string>()

  constructor(
    private readonly scope: Scope,
    params: unknown[],
  ) {
    this.params = params
  }

  param(value: unknown, cast: string): string {
    this.params.push(value)
    return `$${this.params.length}::${cast}`
  }

  /** The SQL of an expression, a literal taking the type it is used as. */
  emit(e: Expr, cast = 'text'): string {
    return e.literal !== undefined ? this.param(e.literal, cast) : e.sql
  }

  asText(e: Expr): string {
    if (e.literal !== undefined) return this.param(e.literal, 'text')
    if (e.type === 'json') return e.text!
    return e.type === 'text' ? e.sql : `(${e.sql})::text`
  }

  asNumber(e: Expr): string {
    if (e.type === 'number') return e.sql
    if (e.literal !== undefined) return this.param(e.literal, 'numeric')
    return `(${this.asText(e)})::numeric`
  }

  asBool(e: Expr): string {
    if (e.type === 'bool') return e.sql
    throw new LogQueryError('A condition must be a comparison, a regexp_contains, LIKE, IN, BETWEEN or IS NULL')
  }

  /**
   * A metadata path: jsonb beside its text; the keys are a bound text[] parameter. The same path reuses its
   * parameter, so `select m.status ... group by m.status` is one expression to Postgres (two parameters are not).
   */
  path(keys: string[]): Expr {
    if (!keys.length) return { type: 'json', sql: 'l.metadata', text: 'l.metadata::text' }
    const known = JSON.stringify(keys)
    let path = this.paths.get(known)
    if (!path) {
      path = this.param(keys, 'text[]')
      this.paths.set(known, path)
    }
    return { type: 'json', sql: `(l.metadata #> ${path})`, text: `(l.metadata #>> ${path})` }
  }

  /** What a name means: a column of the log store, or a path inside metadata. */
  private resolve(fields: string[]): { column: string } | { keys: string[] } {
    if (!this.scope.hasTable) throw new LogQueryError(`Unknown column ${fields.join('.')}: the query has no FROM`)
    let names = fields
    if (names.length > 1 && this.scope.tableNames.has(names[0]!)) names = names.slice(1)
    const [first, ...rest] = names as [string, ...string[]]
    const unnested = this.scope.unnests.get(first)
    if (unnested) return { keys: [...unnested, ...rest] }
    if (METADATA_NAMES.has(first)) return { keys: rest }
    // ClickHouse's severity column of function logs: the level their metadata records.
    if (first === 'severity_text' && rest.length === 0) return { keys: ['level'] }
    if (rest.length === 0 && first in LOG_COLUMNS) return { column: first }
    throw new LogQueryError(`Unknown column ${fields.join('.')}: log queries read id, timestamp, event_message, source and metadata`)
  }

  column(fields: string[]): Expr {
    const resolved = this.resolve(fields)
    if (!('column' in resolved)) return this.path(resolved.keys)
    // id is a uuid: as text it compares with the strings a query writes.
    return { type: LOG_COLUMNS[resolved.column]!, sql: resolved.column === 'id' ? 'l.id::text' : `l."${resolved.column}"` }
  }

  expr(node: Node): Expr {
    const [kind, body] = nodeKind(node)
    switch (kind) {
      case 'A_Const':
        return this.constant(body)
      case 'ColumnRef': {
        if ((body.fields as Node[]).some((field) => 'A_Star' in field)) throw new LogQueryError('* is only supported as SELECT * or COUNT(*)')
        return this.column(stringsOf(body.fields))
      }
      case 'A_Indirection':
        return this.subscript(body)
      case 'FuncCall':
        return this.functionCall(body)
      case 'A_Expr':
        return this.operator(body)
      case 'BoolExpr': {
        const args = (body.args as Node[]).map((arg) => this.asBool(this.expr(arg)))
        if (body.boolop === 'NOT_EXPR') return { type: 'bool', sql: `(NOT ${args[0]})` }
        return { type: 'bool', sql: `(${args.join(body.boolop === 'AND_EXPR' ? ' AND ' : ' OR ')})` }
      }
      case 'NullTest': {
        const arg = this.expr(body.arg)
        return { type: 'bool', sql: `(${this.asText(arg)} ${body.nulltesttype === 'IS_NOT_NULL' ? 'IS NOT NULL' : 'IS NULL'})` }
      }
      case 'TypeCast':
        return this.cast(body)
      case 'CoalesceExpr':
        return { type: 'text', sql: `coalesce(${(body.args as Node[]).map((arg) => this.asText(this.expr(arg))).join(', ')})` }
      case 'SQLValueFunction':
        if (body.op === 'SVFOP_CURRENT_TIMESTAMP' || body.op === 'SVFOP_CURRENT_TIMESTAMP_N') return { type: 'timestamp', sql: 'now()' }
        throw new LogQueryError('Only current_timestamp is supported among the SQL value functions')
      case 'SubLink':
        throw new LogQueryError(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
      default:
        throw new LogQueryError(`${kind} is not supported in log queries`)
    }
  }

  private constant(body: Node): Expr {
    if (body.isnull) return { type: 'text', sql: 'NULL' }
    if (body.sval) return { type: 'text', sql: '', literal: String(body.sval.sval ?? '') }
    if (body.ival) return { type: 'number', sql: String(Number(body.ival.ival ?? 0)), numberLiteral: true }
    if (body.ival !== undefined) return { type: 'number', sql: '0', numberLiteral: true }
    if (body.fval) {
      const text = String(body.fval.fval)
      if (!/^\d*\.?\d*(e[-+]?\d+)?$/i.test(text)) throw new LogQueryError(`Invalid number ${text}`)
      return { type: 'number', sql: text, numberLiteral: true }
    }
    if (body.boolval) return { type: 'bool', sql: body.boolval.boolval ? 'TRUE' : 'FALSE' }
    throw new LogQueryError('This kind of constant is not supported in log queries')
  }

  /** `log_attributes['request.method']` (ClickHouse) and `metadata['key']`: a path of dotted keys. */
  private subscript(body: Node): Expr {
    const [argKind, arg] = nodeKind(body.arg)
    if (argKind !== 'ColumnRef') throw new LogQueryError('Subscripts are only supported on log_attributes and metadata')
    const base = this.resolve(stringsOf(arg.fields))
    if (!('keys' in base)) throw new LogQueryError('Subscripts are only supported on log_attributes and metadata')
    const keys = [...base.keys]
    for (const item of body.indirection as Node[]) {
      const [kind, index] = nodeKind(item)
      if (kind === 'String') keys.push(index.sval)
      else if (kind === 'A_Indices' && !index.is_slice && index.uidx?.A_Const?.sval) keys.push(...String(index.uidx.A_Const.sval.sval).split('.'))
      else throw new LogQueryError("A subscript must be a string, as in log_attributes['request.method']")
    }
    return this.path(keys)
  }

  private comparison(op: string, left: Expr, right: Expr): string {
    const sqlOp = op === '!=' ? '<>' : op
    if (left.type === 'json' && right.type === 'json') return `(${left.sql} ${sqlOp} ${right.sql})`
    // A number compared with a metadata value compares as JSON: 500 = status_code whether stored as 500 or '500' fails only on type.
    if (left.type === 'json' && (right.numberLiteral || right.type === 'bool')) return `(${left.sql} ${sqlOp} to_jsonb(${right.sql}))`
    if (right.type === 'json' && (left.numberLiteral || left.type === 'bool')) return `(to_jsonb(${left.sql}) ${sqlOp} ${right.sql})`
    if (left.type === 'timestamp' || right.type === 'timestamp') return `(${this.emit(left, 'timestamptz')} ${sqlOp} ${this.emit(right, 'timestamptz')})`
    if (left.type === 'number' && right.type === 'number') return `(${left.sql} ${sqlOp} ${right.sql})`
    if ((left.type === 'number' || right.type === 'number') && left.type !== 'json' && right.type !== 'json') {
      return `(${this.asNumber(left)} ${sqlOp} ${this.asNumber(right)})`
    }
    if (left.type === 'bool' && right.type === 'bool') return `(${left.sql} ${sqlOp} ${right.sql})`
    return `(${this.asText(left)} ${sqlOp} ${this.asText(right)})`
  }

  private operator(body: Node): Expr {
    const name = stringsOf(body.name)
    const op = name.length === 1 ? name[0]! : ''
    switch (body.kind) {
      case 'AEXPR_OP': {
        if (!body.lexpr && op === '-') {
          const operand = this.expr(body.rexpr)
          return { type: 'number', sql: `(- ${this.asNumber(operand)})`, numberLiteral: operand.numberLiteral }
        }
        const left = this.expr(body.lexpr)
        const right = this.expr(body.rexpr)
        if (COMPARISONS.has(op)) return { type: 'bool', sql: this.comparison(op, left, right) }
        if (op === '||') return { type: 'text', sql: `(${this.asText(left)} || ${this.asText(right)})` }
        if (ARITHMETIC.has(op)) {
          if (left.type === 'timestamp' && (right.type === 'interval' || right.literal !== undefined) && (op === '+' || op === '-')) {
            return { type: 'timestamp', sql: `(${left.sql} ${op} ${this.emit(right, 'interval')})` }
          }
          return { type: 'number', sql: `(${this.asNumber(left)} ${op} ${this.asNumber(right)})` }
        }
        throw new LogQueryError(`The operator ${op} is not supported in log queries`)
      }
      case 'AEXPR_LIKE': {
        const left = this.asText(this.expr(body.lexpr))
        return { type: 'bool', sql: `(${left} ${op === '!~~' ? 'NOT LIKE' : 'LIKE'} ${this.asText(this.expr(body.rexpr))})` }
      }
      case 'AEXPR_ILIKE':
        throw new LogQueryError(LOG_QUERY_ILIKE_ERROR)
      case 'AEXPR_IN': {
        const left = this.expr(body.lexpr)
        const items = listItems(body.rexpr).map((item) => this.expr(item))
        const numeric = left.type === 'number' || (left.type !== 'text' && items.every((item) => item.numberLiteral))
        const render = (e: Expr) => (numeric ? this.asNumber(e) : this.asText(e))
        const list = items.map(render)
        return { type: 'bool', sql: `(${render(left)} ${op === '<>' ? 'NOT IN' : 'IN'} (${list.join(', ')}))` }
      }
      case 'AEXPR_BETWEEN':
      case 'AEXPR_NOT_BETWEEN': {
        const [low, high] = listItems(body.rexpr).map((item) => this.expr(item)) as [Expr, Expr]
        const value = this.expr(body.lexpr)
        const within = `(${this.comparison('>=', value, low)} AND ${this.comparison('<=', value, high)})`
        return { type: 'bool', sql: body.kind === 'AEXPR_BETWEEN' ? within : `(NOT ${within})` }
      }
      default:
        throw new LogQueryError('This operator is not supported in log queries')
    }
  }

  private cast(body: Node): Expr {
    const names = stringsOf(body.typeName.names).filter((name) => name !== 'pg_catalog')
    const typeName = names.length === 1 ? names[0]!.toLowerCase() : ''
    const arg = this.expr(body.arg)
    if (typeName === 'interval') {
      if (arg.literal === undefined) throw new LogQueryError('An interval must be written as INTERVAL 1 HOUR')
      const mods = (body.typeName.typmods as Node[] | undefined)?.map((mod) => Number(mod.A_Const?.ival?.ival))
      const unit = mods?.length ? INTERVAL_FIELDS[mods[0]!] : undefined
      const text = unit ? `${arg.literal} ${unit}` : arg.literal
      if (!INTERVAL.test(text)) throw new LogQueryError(`Invalid interval '${text}': write it as INTERVAL 1 HOUR`)
      return { type: 'interval', sql: this.param(text, 'interval') }
    }
    const target = CASTS[typeName]
    if (!target) throw new LogQueryError(`Casting to ${names.join('.')} is not supported in log queries`)
    if (arg.literal !== undefined) return { type: target.type, sql: this.param(arg.literal, target.sql) }
    const source = arg.type === 'json' || arg.type === 'bool' ? this.asText(arg) : arg.sql
    return { type: target.type, sql: `(${source})::${target.sql}` }
  }

  private datePart(node: Node): string {
    const [kind, body] = nodeKind(node)
    const part = kind === 'ColumnRef' ? stringsOf(body.fields).join('.') : kind === 'A_Const' && body.sval ? String(body.sval.sval) : ''
    const lower = part.toLowerCase()
    if (!DATE_PARTS.has(lower)) throw new LogQueryError(`Unknown date part ${part}: use one of ${[...DATE_PARTS].join(', ')}`)
    return `'${lower}'` // one of the names above, never the user's text
  }

  private functionCall(body: Node): Expr {
    const names = stringsOf(body.funcname)
    if (names.length !== 1) throw new LogQueryError(`Function ${names.join('.')} is not supported in log queries`)
    if (body.over || body.agg_filter || body.agg_order || body.agg_within_group || body.func_variadic) {
      throw new LogQueryError('Window functions, FILTER and ordered aggregates are not supported in log queries')
    }
    const name = names[0]!.toLowerCase()
    const args = (body.args as Node[] | undefined) ?? []
    const arity = (n: number) => {
      if (args.length !== n) throw new LogQueryError(`${name} takes ${n} argument${n === 1 ? '' : 's'}`)
    }
    const distinct = body.agg_distinct ? 'DISTINCT ' : ''
    switch (name) {
      case 'regexp_contains': {
        arity(2)
        const [value, pattern] = args.map((arg) => this.expr(arg)) as [Expr, Expr]
        const text = this.asText(value)
        // A substring test answers plain-text patterns alone and skips, in front of the regular expression, the lines
        // that lack a text every match holds: the same answer at a third of the cost (regex-literal.ts).
        const needle = pattern.literal !== undefined ? requiredText(pattern.literal) : null
        const contains = needle ? `strpos(${text}, ${this.param(needle.text, 'text')}) > 0` : ''
        if (needle?.whole) return { type: 'bool', sql: `(${contains})` }
        const regex = `${text} ~ ${this.asText(pattern)}`
        // A CASE, not an AND: the planner orders AND-ed conditions by cost and would run the regular expression first.
        // NULL text stays NULL as with `~` alone.
        return { type: 'bool', sql: needle ? `(CASE WHEN ${contains} THEN ${regex} WHEN ${text} IS NOT NULL THEN false END)` : `(${regex})` }
      }
      case 'count':
        if (body.agg_star) return { type: 'number', sql: 'count(*)::integer' }
        arity(1)
        return { type: 'number', sql: `count(${distinct}${this.asText(this.expr(args[0]!))})::integer` }
      case 'sum':
      case 'avg':
        arity(1)
        return { type: 'number', sql: `${name}(${distinct}${this.asNumber(this.expr(args[0]!))})::float8` }
      case 'min':
      case 'max': {
        arity(1)
        const arg = this.expr(args[0]!)
        const sql = arg.type === 'number' || arg.type === 'timestamp' ? arg.sql : this.asText(arg)
        return { type: arg.type === 'number' || arg.type === 'timestamp' ? arg.type : 'text', sql: `${name}(${sql})` }
      }
      case 'timestamp_trunc':
      case 'date_trunc': {
        arity(2)
        const [tsNode, partNode] = name === 'date_trunc' ? [args[1]!, args[0]!] : [args[0]!, args[1]!]
        const ts = this.expr(tsNode)
        if (ts.type !== 'timestamp') throw new LogQueryError(`${name} needs a timestamp`)
        return { type: 'timestamp', sql: `date_trunc(${this.datePart(partNode)}, ${ts.sql})` }
      }
      case 'timestamp_sub':
      case 'timestamp_add': {
        arity(2)
        const ts = this.expr(args[0]!)
        const interval = this.expr(args[1]!)
        if (ts.type !== 'timestamp' || interval.type !== 'interval') throw new LogQueryError(`${name} takes a timestamp and an INTERVAL`)
        return { type: 'timestamp', sql: `(${ts.sql} ${name === 'timestamp_sub' ? '-' : '+'} ${interval.sql})` }
      }
      case 'unix_micros':
      case 'unix_millis':
      case 'unix_seconds': {
        arity(1)
        const ts = this.expr(args[0]!)
        if (ts.type !== 'timestamp') throw new LogQueryError(`${name} needs a timestamp`)
        const scale = { unix_micros: 1_000_000, unix_millis: 1000, unix_seconds: 1 }[name]
        return { type: 'number', sql: `floor(extract(epoch from ${ts.sql}) * ${scale})::float8` }
      }
      case 'current_timestamp':
      case 'now':
        arity(0)
        return { type: 'timestamp', sql: 'now()' }
      case 'lower':
      case 'upper':
      case 'trim':
        arity(1)
        return { type: 'text', sql: `${name}(${this.asText(this.expr(args[0]!))})` }
      case 'length':
      case 'char_length':
        arity(1)
        return { type: 'number', sql: `length(${this.asText(this.expr(args[0]!))})` }
      case 'starts_with':
        arity(2)
        return { type: 'bool', sql: `starts_with(${args.map((arg) => this.asText(this.expr(arg))).join(', ')})` }
      case 'concat':
        return { type: 'text', sql: `concat(${args.map((arg) => this.asText(this.expr(arg))).join(', ')})` }
      case 'ifnull':
      case 'coalesce':
        return { type: 'text', sql: `coalesce(${args.map((arg) => this.asText(this.expr(arg))).join(', ')})` }
      case 'substr':
      case 'substring': {
        if (args.length < 2 || args.length > 3) throw new LogQueryError(`${name} takes 2 or 3 arguments`)
        const [value, ...bounds] = args.map((arg) => this.expr(arg))
        return { type: 'text', sql: `substr(${[this.asText(value!), ...bounds.map((bound) => `(${this.asNumber(bound)})::integer`)].join(', ')})` }
      }
      default:
        throw new LogQueryError(`Function ${names[0]} is not supported in log queries`)
    }
  }
}
