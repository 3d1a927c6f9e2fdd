import { substituteParameters } from '@stratum/sql'
import { format } from 'sql-formatter'
import { describe, expect, it } from 'vitest'
import type { SqlCatalog } from '../src/data/sql/useSqlCatalog'
import { cachedCompletions, completionsFor, identifier, qualifiedName, type CompletionSources } from '../src/features/sql-editor/completion'
import { formatSqlWith } from '../src/features/sql-editor/format'
import { statementAt, statementRunnable } from '../src/features/sql-editor/statementAt'

const catalog: SqlCatalog = {
  schemas: ['app', 'public'],
  relations: [
    { id: 1, schema: 'public', name: 'orders', kind: 'table', columns: [{ name: 'id', type: 'bigint' }, { name: 'total', type: 'numeric' }] },
    { id: 2, schema: 'app', name: 'Line Items', kind: 'table', columns: [{ name: 'sku', type: 'text' }] },
    { id: 3, schema: 'public', name: 'big_orders', kind: 'view', columns: [{ name: 'id', type: 'bigint' }, { name: 'note', type: 'text' }] },
  ],
  functions: [
    { id: 10, schema: 'public', name: 'order_total', args: 'o bigint', result: 'numeric', kind: 'function' },
    { id: 11, schema: 'app', name: 'refresh', args: '', result: '', kind: 'procedure' },
  ],
}
const sources: CompletionSources = { catalog, snippets: [{ name: 'Weekly orders', sql: 'select * from orders' }, { name: 'Empty', sql: ' ' }], builtins: ['now', 'count'] }
const labels = (items: ReturnType<typeof completionsFor>, kind: string) => items.filter((i) => i.kind === kind).map((i) => i.label)

describe('completion offers keywords, schemas, tables, views, columns, functions and saved queries', () => {
  it('at the start of a word: everything, names quoted when Postgres needs it', () => {
    const items = completionsFor(sources, 'sel', 'sel')
    expect(labels(items, 'keyword')).toContain('select')
    expect(labels(items, 'keyword')).toContain('insert into')
    expect(labels(items, 'schema')).toEqual(['app', 'public'])
    expect(labels(items, 'table')).toEqual(['orders', 'app.Line Items'])
    expect(labels(items, 'view')).toEqual(['big_orders'])
    // A column shared by a table and a view is offered once.
    expect(labels(items, 'column')).toEqual(['id', 'total', 'sku', 'note'])
    expect(labels(items, 'function')).toEqual(['order_total', 'app.refresh', 'now', 'count'])
    expect(items.find((i) => i.label === 'app.Line Items')?.insertText).toBe('app."Line Items"')
    expect(items.find((i) => i.label === 'order_total')).toMatchObject({ insertText: 'order_total($0)', snippet: true })
    // A saved query inserts its SQL; an empty one is not offered.
    expect(items.filter((i) => i.kind === 'snippet')).toEqual([
      { label: 'Weekly orders', kind: 'snippet', detail: 'saved query', insertText: 'select * from orders', documentation: 'select * from orders' },
    ])
  })

  it('after schema.: the schema relations and functions', () => {
    const items = completionsFor(sources, 'select * from app.', 'select * from app.')
    expect(items.map((i) => [i.kind, i.insertText])).toEqual([
      ['table', '"Line Items"'],
      ['function', 'refresh($0)'],
    ])
  })

  it('after table. or an alias.: its columns, a view included', () => {
    const text = 'select b. from big_orders b'
    expect(labels(completionsFor(sources, 'select b.', text), 'column')).toEqual(['id', 'note'])
    expect(labels(completionsFor(sources, 'select app."Line Items".', 'select app."Line Items".'), 'column')).toEqual(['sku'])
  })

  it('without a catalog yet: keywords and built-ins only', () => {
    const items = completionsFor({ builtins: ['now'] }, 's', 's')
    expect(new Set(items.map((i) => i.kind))).toEqual(new Set(['keyword', 'function']))
  })

  it('keeps the unqualified list while the catalog is the same, and answers a qualified name afresh', () => {
    const completions = cachedCompletions()
    const first = completions({ ...sources }, 'sel', 'sel')
    expect(completions({ ...sources }, 'select * from o', 'select * from o')).toBe(first)
    expect(first).toEqual(completionsFor(sources, 'sel', 'sel'))
    const changed = { ...sources, catalog: { ...catalog, relations: [] } }
    expect(labels(completions(changed, 'sel', 'sel'), 'table')).toEqual([])
    expect(labels(completions(sources, 'select app.', 'select app.'), 'table')).toEqual(['Line Items'])
  })

  it('quotes reserved words, upper case and other characters', () => {
    expect(identifier('orders')).toBe('orders')
    expect(identifier('order')).toBe('"order"')
    expect(identifier('user')).toBe('"user"')
    expect(identifier('Orders')).toBe('"Orders"')
    expect(identifier('a"b')).toBe('"a""b"')
    expect(qualifiedName('public', 'orders')).toBe('orders')
    expect(qualifiedName('My Schema', 'orders')).toBe('"My Schema".orders')
  })
})

describe('the statement under the cursor', () => {
  const text = "select 'a;b' as one;\n-- a comment; with a semicolon\nselect $$x;y$$ as two;\n\n/* ; */ select 3"
  const at = (needle: string, shift = 0) => text.indexOf(needle) + shift

  it('respects strings, dollar quotes and comments', () => {
    expect(statementAt(text, at("'a;b'"))?.text).toBe("select 'a;b' as one")
    expect(statementAt(text, at('x;y'))?.text).toBe('-- a comment; with a semicolon\nselect $$x;y$$ as two')
    expect(statementAt(text, at('select 3', 3))?.text).toBe('/* ; */ select 3')
  })

  it('right after a semicolon: the statement it ends; on a blank line between: the one before', () => {
    expect(statementAt(text, at('as one;', 7))?.text).toBe("select 'a;b' as one")
    expect(statementAt(text, at('two;\n\n', 5))?.text).toBe('-- a comment; with a semicolon\nselect $$x;y$$ as two')
    expect(statementAt('\n\n  select 1', 0)?.text).toBe('select 1')
    expect(statementAt('  -- nothing', 3)).toBeNull()
  })

  it('runs with its offset in the editor text, so an error position marks the right place', () => {
    const run = statementRunnable(text, at('select 3'))
    expect(run).toEqual({ sql: '/* ; */ select 3', offset: text.indexOf('/* ;') })
    expect(text.slice(run!.offset, run!.offset + run!.sql.length)).toBe(run!.sql)
  })

  it('a statement with :name parameters takes the @set declarations along', () => {
    const sql = '@set id:int = 3\nselect 1;\nselect * from orders where id = :id'
    const run = statementRunnable(sql, sql.length)!
    expect(run.sql).toBe('@set id:int = 3\nselect * from orders where id = :id')
    // What is sent has the declarations removed (substituteParameters): the statement starts at the offset.
    expect(substituteParameters(run.sql)).toBe('select * from orders where id = 3')
    expect(run.offset).toBe(sql.indexOf('select *'))
  })
})

describe('format', () => {
  it('formats with sql-formatter, keeps :name parameters and @set lines as written', () => {
    expect(formatSqlWith(format, 'select a,b from t where x=1')).toBe('select\n  a,\n  b\nfrom\n  t\nwhere\n  x = 1')
    const sql = '@set id:int = 3\nselect * from t where id=:id\n'
    expect(formatSqlWith(format, sql)).toBe('@set id:int = 3\nselect\n  *\nfrom\n  t\nwhere\n  id = :id\n')
  })

  it('keeps strings, dollar-quoted bodies and comments', () => {
    const out = formatSqlWith(format, "select 'a;b' -- c\n; create function f() returns int language sql as $$select 1$$")
    expect(out).toContain("'a;b' -- c")
    expect(out).toContain('$$select 1$$')
  })
})
