import { quoteIdentifier } from '@stratum/sql'
import { checkedName, checkedReturnType, checkedSqlList, dollarQuote, ObjectInputError, qualified, type ObjectName } from './input'

export const FUNCTION_BEHAVIORS = ['VOLATILE', 'STABLE', 'IMMUTABLE'] as const
export type FunctionBehavior = (typeof FUNCTION_BEHAVIORS)[number]

/** A function as the form holds it. */
export interface FunctionSpec extends ObjectName {
  /** The argument list in SQL: `a integer, b text DEFAULT 'x'`. */
  args: string
  returns: string
  language: string
  body: string
  securityDefiner: boolean
  behavior: FunctionBehavior
  /** The search_path setting as typed: blank for none, `''` for an empty path, else schema names separated by commas. */
  searchPath: string
}

/** The function being edited, as the listing describes it (postgres-meta's fields). */
export interface ExistingFunction extends ObjectName {
  argument_types: string
  identity_argument_types: string
  return_type: string
}

/**
 * `SET search_path = ...` for what the user typed, or '' when they set none. Each schema is quoted (a user may
 * write it bare or in double quotes); `''` alone means an empty path, the safest for a security definer function.
 */
export function searchPathClause(typed: string): string {
  const trimmed = typed.trim()
  if (!trimmed) return ''
  if (trimmed === "''" || trimmed === '""') return "SET search_path = ''"
  const schemas = splitSearchPath(trimmed).map((part) => {
    const quoted = /^"((?:[^"]|"")*)"$/.exec(part)
    const name = quoted ? quoted[1]!.replaceAll('""', '"') : part
    if (!name) throw new ObjectInputError('search_path has an empty schema name')
    if (!quoted && /[\s'";]/.test(name)) throw new ObjectInputError(`search_path entry ${part} must be a schema name (double-quote it if it holds spaces or quotes)`)
    return quoteIdentifier(name)
  })
  return `SET search_path = ${schemas.join(', ')}`
}

/** Splits on commas outside double quotes. */
function splitSearchPath(text: string): string[] {
  const parts: string[] = []
  let current = ''
  let quoted = false
  for (const ch of text) {
    if (ch === '"') quoted = !quoted
    if (ch === ',' && !quoted) {
      parts.push(current.trim())
      current = ''
    } else current += ch
  }
  parts.push(current.trim())
  return parts
}

/** How proconfig shows a search_path (`""` for an empty one, `public, extensions`) turned back into what the form takes. */
export function searchPathForForm(config: Record<string, string> | null): string {
  const value = config?.search_path
  if (value === undefined) return ''
  return value === '""' || value === '' ? "''" : value
}

const sameSql = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim()

/**
 * CREATE FUNCTION for a new function. For an edited one: CREATE OR REPLACE when its schema, name, arguments and
 * return type stay (Postgres then keeps its grants and the triggers that use it); else the old one is dropped and the
 * new one created, in the one request (one transaction), since OR REPLACE would make an overload beside it or
 * silently replace another function of that signature.
 */
export function buildSaveFunction(spec: FunctionSpec, existing?: ExistingFunction): string {
  checkedName(spec.schema, 'Schema')
  checkedName(spec.name, 'Name')
  const args = checkedSqlList(spec.args, 'Arguments')
  const returns = checkedReturnType(spec.returns)
  if (!spec.language.trim()) throw new ObjectInputError('Language is required')
  if (!spec.body.trim()) throw new ObjectInputError('Definition is required')
  const setPath = searchPathClause(spec.searchPath)
  if (spec.securityDefiner && !setPath) {
    throw new ObjectInputError("A security definer function needs a search_path: set one (use '' for an empty path)")
  }
  const quote = dollarQuote(spec.body)
  const sameSignature =
    existing !== undefined &&
    existing.schema === spec.schema &&
    existing.name === spec.name &&
    sameSql(existing.argument_types, args) &&
    sameSql(existing.return_type, returns)
  const lines = [
    `${sameSignature ? 'CREATE OR REPLACE' : 'CREATE'} FUNCTION ${qualified(spec)}(${args})`,
    `RETURNS ${returns}`,
    `LANGUAGE ${quoteIdentifier(spec.language)}`,
    spec.behavior,
    spec.securityDefiner ? 'SECURITY DEFINER' : 'SECURITY INVOKER',
    ...(setPath ? [setPath] : []),
    `AS ${quote}`,
    spec.body.replace(/\s+$/, ''),
    `${quote};`,
  ]
  const create = lines.join('\n')
  if (!existing || sameSignature) return create
  return `${buildDropFunction(existing, false)}\n${create}`
}

/** DROP FUNCTION by its identity arguments (as Postgres printed them: names and types already quoted). */
export function buildDropFunction(existing: ObjectName & { identity_argument_types: string }, cascade: boolean): string {
  const args = checkedSqlList(existing.identity_argument_types, 'Arguments')
  return `DROP FUNCTION ${qualified(existing)}(${args})${cascade ? ' CASCADE' : ''};`
}
