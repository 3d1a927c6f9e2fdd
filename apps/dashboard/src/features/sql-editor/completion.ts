import type { PgMetaTable } from '@stratum/contracts'
import type { Monaco } from './monaco'

type Disposable = ReturnType<Monaco['languages']['registerCompletionItemProvider']>
type Model = Parameters<Parameters<Monaco['languages']['registerCompletionItemProvider']>[1]['provideCompletionItems']>[0]

const unquote = (name: string) => (name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toLowerCase())

/** Quotes an identifier only when Postgres would need it. */
export function identifier(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`
}

const IDENT = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`
const ALIAS_RE = new RegExp(String.raw`\b(?:from|join|update|into)\s+(?:(${IDENT})\s*\.\s*)?(${IDENT})(?:\s+(?:as\s+)?(${IDENT}))?`, 'gi')
const QUALIFIER_RE = new RegExp(String.raw`(?:(${IDENT})\s*\.\s*)?(${IDENT})\s*\.\s*[\w$]*$`)
const NOT_ALIAS = new Set(['where', 'on', 'join', 'left', 'right', 'inner', 'full', 'cross', 'group', 'order', 'limit', 'set', 'values', 'using', 'natural', 'union', 'returning', 'select', 'offset', 'having', 'window'])

/** Tables named in the text with the alias each goes by (`from public.orders o` gives o → public.orders). */
function aliases(text: string): Map<string, { schema?: string; table: string }> {
  const found = new Map<string, { schema?: string; table: string }>()
  for (const match of text.matchAll(ALIAS_RE)) {
    const [, schema, table, alias] = match
    if (!table) continue
    const target = { schema: schema ? unquote(schema) : undefined, table: unquote(table) }
    if (alias && !NOT_ALIAS.has(alias.toLowerCase())) found.set(unquote(alias), target)
  }
  return found
}

/**
 * The completion items for the text before the cursor: after `schema.` the schema's tables, after
 * `table.` (or an alias of it) its columns, otherwise schemas, tables and the columns of every table.
 */
export function completionsFor(
  tables: readonly PgMetaTable[],
  before: string,
  fullText: string,
): { label: string; kind: 'schema' | 'table' | 'column'; detail: string; insertText: string }[] {
  const qualified = QUALIFIER_RE.exec(before)
  if (qualified) {
    const [, first, second] = qualified
    const name = unquote(second ?? '')
    const schema = first ? unquote(first) : undefined
    const out: ReturnType<typeof completionsFor> = []
    if (!schema) {
      for (const table of tables.filter((t) => t.schema === name)) {
        out.push({ label: table.name, kind: 'table', detail: `table in ${table.schema}`, insertText: identifier(table.name) })
      }
    }
    const alias = schema ? undefined : aliases(fullText).get(name)
    const matches = tables.filter((t) =>
      alias ? t.name === alias.table && (!alias.schema || t.schema === alias.schema) : t.name === name && (!schema || t.schema === schema),
    )
    for (const table of matches) {
      for (const column of table.columns ?? []) {
        out.push({ label: column.name, kind: 'column', detail: `${column.format} · ${table.schema}.${table.name}`, insertText: identifier(column.name) })
      }
    }
    return out
  }
  const out: ReturnType<typeof completionsFor> = []
  const schemas = new Set(tables.map((t) => t.schema))
  for (const schema of schemas) out.push({ label: schema, kind: 'schema', detail: 'schema', insertText: identifier(schema) })
  const seenColumns = new Set<string>()
  for (const table of tables) {
    const insert = table.schema === 'public' ? identifier(table.name) : `${identifier(table.schema)}.${identifier(table.name)}`
    out.push({ label: table.schema === 'public' ? table.name : `${table.schema}.${table.name}`, kind: 'table', detail: `table in ${table.schema}`, insertText: insert })
    for (const column of table.columns ?? []) {
      if (seenColumns.has(column.name)) continue
      seenColumns.add(column.name)
      out.push({ label: column.name, kind: 'column', detail: `${column.format} · ${table.name}`, insertText: identifier(column.name) })
    }
  }
  return out
}

/** Registers completion of the project's schemas, tables and columns for pgsql; dispose it on unmount. */
export function registerSqlCompletion(monaco: Monaco, model: Model, getTables: () => readonly PgMetaTable[]): Disposable {
  const kinds = {
    schema: monaco.languages.CompletionItemKind.Module,
    table: monaco.languages.CompletionItemKind.Class,
    column: monaco.languages.CompletionItemKind.Field,
  }
  const order = { table: '1', column: '2', schema: '3' }
  return monaco.languages.registerCompletionItemProvider('pgsql', {
    triggerCharacters: ['.'],
    provideCompletionItems: (current, position) => {
      // The provider is global to the language: answer only for this editor's model.
      if (current !== model) return { suggestions: [] }
      const word = current.getWordUntilPosition(position)
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn }
      const before = current.getValueInRange({ startLineNumber: position.lineNumber, startColumn: 1, endLineNumber: position.lineNumber, endColumn: position.column })
      const items = completionsFor(getTables(), before, current.getValue())
      return {
        suggestions: items.map((item) => ({
          label: item.label,
          kind: kinds[item.kind],
          detail: item.detail,
          insertText: item.insertText,
          sortText: `${order[item.kind]}${item.label}`,
          range,
        })),
      }
    },
  })
}
