import { describe, expect, it } from 'vitest'
import { findDestructiveOperations, hasUpdateWithoutWhere, isDestructiveSql } from '../src/index.js'
import { splitSqlStatements } from '../src/parser-entry.js'

const kinds = (sql: string) => findDestructiveOperations(sql).map((operation) => operation.kind)

describe('findDestructiveOperations', () => {
  it.each([
    ['delete from t where id = 1', ['delete']],
    ['DELETE FROM t', ['delete']],
    ['drop table t', ['drop']],
    ['drop schema s cascade', ['drop']],
    ['truncate t', ['truncate']],
    ['truncate table t restart identity', ['truncate']],
    ['alter table t drop column c', ['alter-table-drop-column']],
    ['alter table if exists only t drop column if exists c cascade', ['alter-table-drop-column']],
    ['alter table t drop c', ['alter-table-drop-column']],
    ['alter table t drop "Weird Column"', ['alter-table-drop-column']],
    ['alter table t add column x int, drop column y', ['alter-table-drop-column']],
    ['update t set a = 1', ['update-without-where']],
    ['update only public.t * as x set a = 1', ['update-without-where']],
    ['update t set a = (select b from u where u.id = 1)', ['update-without-where']],
    ['with d as (delete from t returning *) select * from d', ['delete']],
    ['with u as (update t set a = 1 returning *) select * from u where u.a = 1', ['update-without-where']],
    ['explain analyze delete from t', ['delete']],
    ['merge into t using s on t.id = s.id when matched then delete', ['delete']],
    ['select 1; delete from t; drop table u', ['delete', 'drop']],
  ])('%s', (sql, expected) => {
    expect(kinds(sql)).toEqual(expected)
  })

  it.each([
    'select * from t',
    'update t set a = 1 where id = 2',
    'update t set a = 1 from u where t.id = u.id',
    'update t set a = 1 where current of c',
    'alter table t drop constraint t_pkey',
    'alter table t alter column c drop default',
    'alter table t alter column c drop not null',
    'alter table t alter c drop expression',
    'alter table t alter column c drop identity if exists',
    'alter table t rename column a to b',
    'select * from t for update',
    'select * from t for update of t nowait',
    'grant delete, update on t to r',
    'create table a (id int references b(id) on delete cascade on update cascade)',
    'create policy p on t for delete using (true)',
    "create trigger tr before update or delete on t for each row execute function f()",
    'insert into t values (1) on conflict (id) do update set a = excluded.a',
    "select 'delete from t', 'drop table t' -- truncate t\n",
    'select 1 /* update t set a = 1 */',
    'select "drop", "delete" from "truncate"',
    "create function f() returns void language sql as $$ delete from t; drop table u $$",
    'select created, deleted, truncated, updated from log',
    'select t.delete from t',
    'create index on t (a); alter index i rename to j',
  ])('finds nothing in: %s', (sql) => {
    expect(findDestructiveOperations(sql)).toEqual([])
  })

  it('reports the statement and the keyword offsets', () => {
    const sql = 'select 1;\n  DROP table t; update t set a = 1'
    expect(findDestructiveOperations(sql)).toEqual([
      { kind: 'drop', statementIndex: 1, start: sql.indexOf('DROP'), end: sql.indexOf('DROP') + 4, command: 'DROP TABLE', targets: ['t'] },
      { kind: 'update-without-where', statementIndex: 2, start: sql.indexOf('update'), end: sql.indexOf('update') + 6, command: 'UPDATE', targets: ['t'] },
    ])
  })

  it('looks into DO blocks, which run at once, and reports them at the DO keyword', () => {
    const sql = "select 1; do $$ begin delete from t; if true then drop table u; end if; update t set a = 1; end $$"
    const found = findDestructiveOperations(sql)
    expect(found.map((f) => f.kind)).toEqual(['delete', 'drop', 'update-without-where'])
    for (const f of found) expect(sql.slice(f.start, f.end)).toBe('do')
    expect(kinds("do language plpgsql 'begin truncate t; end'")).toEqual(['truncate'])
    expect(kinds("do $$ begin raise notice 'drop table x'; end $$")).toEqual([])
  })
})

describe('isDestructiveSql and hasUpdateWithoutWhere', () => {
  it('separate the destructive patterns from the missing where', () => {
    expect(isDestructiveSql('delete from t')).toBe(true)
    expect(isDestructiveSql('update t set a = 1')).toBe(false)
    expect(hasUpdateWithoutWhere('update t set a = 1')).toBe(true)
    expect(hasUpdateWithoutWhere('update t set a = 1 where b')).toBe(false)
    expect(hasUpdateWithoutWhere("update t set a = 'where'")).toBe(true)
    expect(hasUpdateWithoutWhere('update t set a = 1 -- where id = 1')).toBe(true)
    expect(isDestructiveSql('select 1')).toBe(false)
  })
})

describe('destructive statements agree with the real parser', () => {
  it('flags delete, drop and truncate exactly where the parser sees those statements', async () => {
    const sql = [
      'delete from t where id = 1',
      'DROP TABLE IF EXISTS "delete"',
      'truncate only t, u',
      'drop function f(int)',
      "select 'drop table x'",
      'grant delete on t to r',
      'create table c (id int references p on delete cascade)',
      'comment on table t is $$delete from t$$',
      'insert into log values (\'truncate\')',
      'alter table t drop constraint k',
    ].join(';\n')
    const { statements, source } = await splitSqlStatements(sql)
    expect(source).toBe('parser')
    const expected = statements.map((s) => ({ DeleteStmt: 'delete', DropStmt: 'drop', TruncateStmt: 'truncate' })[s.nodeType as string])
    const found = statements.map((_, i) => findDestructiveOperations(sql).find((f) => f.statementIndex === i)?.kind)
    expect(found).toEqual(expected)
    expect(expected.filter(Boolean)).toHaveLength(4)
  })
})

describe('what a destructive operation names', () => {
  const named = (sql: string) => findDestructiveOperations(sql).map(({ command, targets, column, everyRow }) => ({ command, targets, column, everyRow }))

  it.each([
    ['delete from public.orders', { command: 'DELETE', targets: ['public.orders'], everyRow: true }],
    ['delete from only t where id = 1', { command: 'DELETE', targets: ['t'], everyRow: false }],
    ['with d as (delete from t returning *) select * from d where d.id = 1', { command: 'DELETE', targets: ['t'], everyRow: true }],
    ['merge into tgt using s on tgt.id = s.id when matched then delete', { command: 'DELETE', targets: ['tgt'], everyRow: false }],
    ['drop table if exists a, s."B" cascade', { command: 'DROP TABLE', targets: ['a', 's."B"'] }],
    ['drop materialized view mv', { command: 'DROP MATERIALIZED VIEW', targets: ['mv'] }],
    ['drop index concurrently if exists i', { command: 'DROP INDEX', targets: ['i'] }],
    ['drop function f(int, text), g()', { command: 'DROP FUNCTION', targets: ['f', 'g'] }],
    ['drop schema s cascade', { command: 'DROP SCHEMA', targets: ['s'] }],
    ['drop table data', { command: 'DROP TABLE', targets: ['data'] }],
    ['truncate table only a, b * restart identity', { command: 'TRUNCATE', targets: ['a', 'b'] }],
    ['truncate t', { command: 'TRUNCATE', targets: ['t'] }],
    ['alter table if exists only public.t drop column if exists note cascade', { command: 'ALTER TABLE ... DROP COLUMN', targets: ['public.t'], column: 'note' }],
    ['alter table t drop "Weird Column"', { command: 'ALTER TABLE ... DROP COLUMN', targets: ['t'], column: '"Weird Column"' }],
    ['update only public.t * as x set a = 1', { command: 'UPDATE', targets: ['public.t'] }],
  ])('%s', (sql, expected) => {
    expect(named(sql)).toEqual([{ column: undefined, everyRow: undefined, ...expected }])
  })

  it('names the statements of a DO block too', () => {
    expect(named('do $$ begin truncate audit; end $$')).toEqual([{ command: 'TRUNCATE', targets: ['audit'], column: undefined, everyRow: undefined }])
  })
})
