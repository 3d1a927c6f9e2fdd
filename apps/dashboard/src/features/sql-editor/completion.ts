import { RESERVED_KEYWORDS } from '@stratum/sql'
import type { CatalogRelation, SqlCatalog } from '../../data/sql/useSqlCatalog'
import type { Monaco } from './monaco'

type Disposable = ReturnType<Monaco['languages']['registerCompletionItemProvider']>
type Model = Parameters<Parameters<Monaco['languages']['registerCompletionItemProvider']>[1]['provideCompletionItems']>[0]

export type CompletionKind = 'keyword' | 'schema' | 'table' | 'view' | 'column' | 'function' | 'snippet'

export interface SqlCompletion {
  label: string
  kind: CompletionKind
  detail: string
  insertText: string
  /** insertText is a Monaco snippet (`name($0)` puts the cursor between the parentheses). */
  snippet?: boolean
  /** Shown beside the list: a saved query's SQL. */
  documentation?: string
}

/** What completion offers beside the text itself. */
export interface CompletionSources {
  catalog?: SqlCatalog
  /** The project's saved queries the member sees: choosing one inserts its SQL. */
  snippets?: readonly { name: string; sql: string }[]
  /** Postgres's built-in function names (Monaco's pgsql list). */
  builtins?: readonly string[]
}

/** Words that start or join clauses, offered as keywords (lower case, as the product writes SQL). */
export const SQL_KEYWORDS: readonly string[] = [
  'select', 'from', 'where', 'and', 'or', 'not', 'in', 'is', 'null', 'like', 'ilike', 'between', 'exists', 'as', 'distinct', 'on',
  'join', 'left join', 'right join', 'inner join', 'full join', 'cross join', 'lateral', 'using', 'group by', 'order by', 'having',
  'limit', 'offset', 'fetch first', 'union', 'union all', 'intersect', 'except', 'with', 'recursive', 'case', 'when', 'then', 'else',
  'end', 'asc', 'desc', 'nulls first', 'nulls last', 'insert into', 'values', 'default', 'returning', 'on conflict', 'do nothing',
  'do update set', 'update', 'set', 'delete from', 'truncate', 'create table', 'create view', 'create materialized view',
  'create index', 'create schema', 'create function', 'create or replace function', 'create trigger', 'create policy',
  'create extension', 'create type', 'alter table', 'add column', 'drop column', 'alter column', 'rename to', 'drop table',
  'drop view', 'drop function', 'drop index', 'drop schema', 'if exists', 'if not exists', 'cascade', 'restrict', 'primary key',
  'foreign key', 'references', 'unique', 'check', 'constraint', 'not null', 'generated always as identity', 'begin', 'commit',
  'rollback', 'savepoint', 'explain', 'analyze', 'vacuum', 'grant', 'revoke', 'to', 'all', 'any', 'some', 'true', 'false', 'cast',
  'interval', 'over', 'partition by', 'filter', 'window', 'language', 'returns', 'security definer',
  'enable row level security', 'for each row', 'execute function', 'comment on', 'is distinct from',
]

const unquote = (name: string) => (name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toLowerCase())

/** Quotes an identifier only when Postgres would need it: upper case, other characters, or a reserved word. */
export function identifier(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) && !RESERVED_KEYWORDS.has(name) ? name : `"${name.replace(/"/g, '""')}"`
}

/** The name as typed into SQL: schema-qualified unless it lives in public. */
export function qualifiedName(schema: string, name: string): string {
  return schema === 'public' ? identifier(name) : `${identifier(schema)}.${identifier(name)}`
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

const relationKind = (relation: CatalogRelation): 'table' | 'view' => (relation.kind === 'view' || relation.kind === 'materialized view' ? 'view' : 'table')
/** `$` and `}` mean something in a Monaco snippet: a name holding them is escaped. */
const snippetText = (text: string) => text.replace(/[$}\\]/g, (c) => `\\${c}`)
const call = (name: string): Pick<SqlCompletion, 'insertText' | 'snippet'> => ({ insertText: `${snippetText(name)}($0)`, snippet: true })

/**
 * The completion items for the text before the cursor: after `schema.` the schema's tables, views and
 * functions; after `table.` (or an alias of it) its columns; otherwise keywords, schemas, tables, views,
 * the columns of every relation (once per name), functions, built-in functions and saved queries.
 */
export function completionsFor(sources: CompletionSources, before: string, fullText: string): SqlCompletion[] {
  const relations = sources.catalog?.relations ?? []
  const functions = sources.catalog?.functions ?? []
  const qualified = QUALIFIER_RE.exec(before)
  if (qualified) {
    const [, first, second] = qualified
    const name = unquote(second ?? '')
    const schema = first ? unquote(first) : undefined
    const out: SqlCompletion[] = []
    if (!schema) {
      for (const relation of relations.filter((r) => r.schema === name)) {
        const kind = relationKind(relation)
        out.push({ label: relation.name, kind, detail: `${relation.kind} in ${relation.schema}`, insertText: identifier(relation.name) })
      }
      for (const fn of functions.filter((f) => f.schema === name)) {
        out.push({ label: fn.name, kind: 'function', detail: `${fn.name}(${fn.args})${fn.result ? ` → ${fn.result}` : ''}`, ...call(identifier(fn.name)) })
      }
    }
    const alias = schema ? undefined : aliases(fullText).get(name)
    const matches = relations.filter((r) =>
      alias ? r.name === alias.table && (!alias.schema || r.schema === alias.schema) : r.name === name && (!schema || r.schema === schema),
    )
    for (const relation of matches) {
      for (const column of relation.columns) {
        out.push({ label: column.name, kind: 'column', detail: `${column.type} · ${relation.schema}.${relation.name}`, insertText: identifier(column.name) })
      }
    }
    return out
  }
  return everyName(sources)
}

/** What is offered outside a qualified name: the same whatever is typed, so computed once per catalog (below). */
function everyName(sources: CompletionSources): SqlCompletion[] {
  const relations = sources.catalog?.relations ?? []
  const functions = sources.catalog?.functions ?? []
  const out: SqlCompletion[] = SQL_KEYWORDS.map((word) => ({ label: word, kind: 'keyword' as const, detail: 'keyword', insertText: word }))
  for (const schema of sources.catalog?.schemas ?? []) out.push({ label: schema, kind: 'schema', detail: 'schema', insertText: identifier(schema) })
  const seenColumns = new Set<string>()
  for (const relation of relations) {
    const label = relation.schema === 'public' ? relation.name : `${relation.schema}.${relation.name}`
    out.push({ label, kind: relationKind(relation), detail: `${relation.kind} in ${relation.schema}`, insertText: qualifiedName(relation.schema, relation.name) })
    for (const column of relation.columns) {
      if (seenColumns.has(column.name)) continue
      seenColumns.add(column.name)
      out.push({ label: column.name, kind: 'column', detail: `${column.type} · ${relation.name}`, insertText: identifier(column.name) })
    }
  }
  const ownFunctions = new Set<string>()
  for (const fn of functions) {
    const label = fn.schema === 'public' ? fn.name : `${fn.schema}.${fn.name}`
    if (ownFunctions.has(label)) continue
    ownFunctions.add(label)
    out.push({ label, kind: 'function', detail: `${fn.name}(${fn.args})${fn.result ? ` → ${fn.result}` : ''}`, ...call(qualifiedName(fn.schema, fn.name)) })
  }
  for (const name of sources.builtins ?? []) {
    if (!ownFunctions.has(name)) out.push({ label: name, kind: 'function', detail: 'built-in function', ...call(name) })
  }
  for (const snippet of sources.snippets ?? []) {
    if (!snippet.sql.trim()) continue
    out.push({ label: snippet.name, kind: 'snippet', detail: 'saved query', insertText: snippet.sql, documentation: snippet.sql.slice(0, 2000) })
  }
  return out
}

/**
 * completionsFor with the unqualified list kept while its sources are the same objects: a project of thousands of
 * tables does not rebuild it at the start of every word typed.
 */
export function cachedCompletions(): (sources: CompletionSources, before: string, fullText: string) => SqlCompletion[] {
  let last: { catalog?: SqlCatalog; snippets?: CompletionSources['snippets']; builtins?: CompletionSources['builtins']; items: SqlCompletion[] } | undefined
  return (sources, before, fullText) => {
    if (QUALIFIER_RE.test(before)) return completionsFor(sources, before, fullText)
    if (!last || last.catalog !== sources.catalog || last.snippets !== sources.snippets || last.builtins !== sources.builtins) {
      last = { catalog: sources.catalog, snippets: sources.snippets, builtins: sources.builtins, items: everyName(sources) }
    }
    return last.items
  }
}

/** Registers completion for pgsql in one editor's model; dispose it on unmount. */
export function registerSqlCompletion(monaco: Monaco, model: Model, getSources: () => CompletionSources): Disposable {
  const { CompletionItemKind, CompletionItemInsertTextRule } = monaco.languages
  const kinds: Record<CompletionKind, number> = {
    keyword: CompletionItemKind.Keyword,
    schema: CompletionItemKind.Module,
    table: CompletionItemKind.Class,
    view: CompletionItemKind.Interface,
    column: CompletionItemKind.Field,
    function: CompletionItemKind.Function,
    snippet: CompletionItemKind.Snippet,
  }
  // The project's own names first, then functions, keywords and saved queries.
  const order: Record<CompletionKind, string> = { column: '1', table: '2', view: '2', schema: '3', function: '4', keyword: '5', snippet: '6' }
  const completions = cachedCompletions()
  return monaco.languages.registerCompletionItemProvider('pgsql', {
    triggerCharacters: ['.'],
    provideCompletionItems: (current, position) => {
      // The provider is global to the language: answer only for this editor's model.
      if (current !== model) return { suggestions: [] }
      const word = current.getWordUntilPosition(position)
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn }
      const before = current.getValueInRange({ startLineNumber: position.lineNumber, startColumn: 1, endLineNumber: position.lineNumber, endColumn: position.column })
      const items = completions(getSources(), before, current.getValue())
      return {
        suggestions: items.map((item) => ({
          label: item.label,
          kind: kinds[item.kind],
          detail: item.detail,
          insertText: item.insertText,
          ...(item.snippet ? { insertTextRules: CompletionItemInsertTextRule.InsertAsSnippet } : {}),
          ...(item.documentation ? { documentation: { value: '```sql\n' + item.documentation + '\n```' } } : {}),
          sortText: `${order[item.kind]}${item.label}`,
          range,
        })),
      }
    },
  })
}
