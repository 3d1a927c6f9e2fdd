import type { PgMetaFunction } from '@stratum/contracts'
import { identifierName, quoteIdentifier, tokenize } from '@stratum/sql'
import { ObjectInputError } from './input'

/**
 * A function's arguments as the form edits them, one row each (as Studio's function editor does),
 * and the SQL list they make. Types and defaults are SQL text on purpose; the whole list is checked
 * as one clause (checkedSqlList) before it is pasted into CREATE FUNCTION. Names are always quoted.
 */
export const ARGUMENT_MODES = ['IN', 'OUT', 'INOUT', 'VARIADIC'] as const
export type ArgumentMode = (typeof ARGUMENT_MODES)[number]

export interface FunctionArgument {
  mode: ArgumentMode
  /** '' for an unnamed argument. */
  name: string
  type: string
  /** SQL expression; '' for none. */
  defaultValue: string
}

export const NEW_ARGUMENT: FunctionArgument = { mode: 'IN', name: '', type: 'text', defaultValue: '' }

/** `a integer, OUT b text, c text DEFAULT 'x'`: what CREATE FUNCTION's parentheses take. */
export function renderArguments(args: readonly FunctionArgument[]): string {
  return args
    .map((arg, index) => {
      const type = arg.type.trim()
      if (!type) throw new ObjectInputError(`Argument ${index + 1}${arg.name ? ` (${arg.name})` : ''} needs a type`)
      const name = arg.name.trim()
      const defaultValue = arg.defaultValue.trim()
      if (defaultValue && (arg.mode === 'OUT' || arg.mode === 'VARIADIC')) throw new ObjectInputError(`Argument ${index + 1}: only IN and INOUT arguments take a default`)
      return [arg.mode === 'IN' ? '' : arg.mode, name ? quoteIdentifier(name) : '', type, defaultValue ? `DEFAULT ${defaultValue}` : ''].filter(Boolean).join(' ')
    })
    .join(', ')
}

/**
 * The rows of an existing function, from Postgres's printed list (`argument_types`, as
 * pg_get_function_arguments writes it) and postgres-meta's `args` (modes, names, which have a
 * default), which together say unambiguously where each name ends and its type begins. Undefined
 * when they do not agree: the form then edits the list as text.
 */
export function argumentsOfFunction(printed: string, args: PgMetaFunction['args']): FunctionArgument[] | undefined {
  const declared = args.filter((arg) => arg.mode !== 'table')
  const parts = splitTopLevel(printed)
  if (parts.length !== declared.length) return undefined
  const rows: FunctionArgument[] = []
  for (const [index, arg] of declared.entries()) {
    let rest = parts[index]!
    const mode = arg.mode.toUpperCase() as ArgumentMode
    if (mode !== 'IN') {
      if (!rest.toUpperCase().startsWith(`${mode} `)) return undefined
      rest = rest.slice(mode.length + 1).trimStart()
    } else if (/^IN\s/i.test(rest)) rest = rest.slice(3).trimStart()
    if (arg.name) {
      // Postgres quotes a name only when it must: the first token, read as a name, is this one.
      const first = tokenize(rest)[0]
      if (!first || identifierName(first) !== arg.name) return undefined
      rest = rest.slice(first.end).trimStart()
    }
    let defaultValue = ''
    if (arg.has_default) {
      const at = topLevelKeyword(rest, 'DEFAULT')
      if (at === undefined) return undefined
      defaultValue = rest.slice(at + 'DEFAULT'.length).trim()
      rest = rest.slice(0, at).trim()
    }
    if (!rest) return undefined
    rows.push({ mode, name: arg.name, type: rest, defaultValue })
  }
  return rows
}

/** Splits at commas outside parentheses, brackets, strings and quoted names. */
function splitTopLevel(text: string): string[] {
  if (!text.trim()) return []
  const parts: string[] = []
  let depth = 0
  let from = 0
  for (const token of tokenize(text)) {
    if (token.kind !== 'punctuation') continue
    if (token.text === '(' || token.text === '[') depth += 1
    else if (token.text === ')' || token.text === ']') depth -= 1
    else if (token.text === ',' && depth === 0) {
      parts.push(text.slice(from, token.start).trim())
      from = token.end
    }
  }
  parts.push(text.slice(from).trim())
  return parts
}

/** Where a keyword stands as its own word outside parentheses (the first such place). */
function topLevelKeyword(text: string, keyword: string): number | undefined {
  let depth = 0
  for (const token of tokenize(text)) {
    if (token.kind === 'punctuation' && (token.text === '(' || token.text === '[')) depth += 1
    else if (token.kind === 'punctuation' && (token.text === ')' || token.text === ']')) depth -= 1
    else if (depth === 0 && token.kind === 'word' && token.text.toUpperCase() === keyword) return token.start
  }
  return undefined
}
