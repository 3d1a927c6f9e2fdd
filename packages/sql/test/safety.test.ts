import { describe, expect, it } from 'vitest'
import { FUNCTION_CALL_WARNING, getQueryWarning, RUN_CONFIRMATION_QUESTION, WRITE_OPERATION_WARNING } from '../src/index.js'

const kind = (sql: string) => getQueryWarning(sql)?.kind ?? null

describe('getQueryWarning: queries that run without confirmation', () => {
  it.each([
    'select * from users',
    'SELECT id, name FROM public.users WHERE id = 1',
    'select count(*), sum(a), avg(a), min(a), max(a) from t',
    "select coalesce(a, 0), nullif(b, ''), length(c), lower(d), upper(e), trim(f) from t",
    "select substring(name from 1 for 3), to_char(now(), 'YYYY'), to_date('2020', 'YYYY') from t",
    'select extract(year from created_at), date(created_at), date_trunc(\'day\', created_at) from t',
    "select string_agg(name, ', '), left(name, 2) from t where id in (1, 2)",
    'select current_timestamp, current_date',
    'select count (*) from t',
    'select pg_catalog.count(*) from t',
    '-- list the users\nselect * from users',
    "select 'insert into t; drop table x; pg_sleep(1)' as s",
    'select 1 /* delete from t; update t set a = 1 */',
    "select $$ create or replace function f() $$",
    'select "update", "drop"."delete" from "insert"',
    'select created, inserted, updated, deleted, truncated from audit',
    'select t.update from t',
    'select * from t where exists (select 1 from u where u.id = t.id) and (a or b)',
    'select a::numeric(10, 2), cast(b as varchar(20)) from t',
    'select * from t join u on (t.id = u.id) where t.x = any (array[1, 2])',
    'select count(*) filter (where ok) over (partition by g) from t',
    'select g.n from (select 1) as g(n)',
    'select 1; select 2',
    'select',
  ])('%s', (sql) => {
    expect(getQueryWarning(sql)).toBeNull()
  })

  it('does not warn for empty SQL, which is not run at all', () => {
    expect(getQueryWarning('')).toBeNull()
    expect(getQueryWarning('-- nothing')).toBeNull()
  })
})

describe('getQueryWarning: write operations', () => {
  it('warns with the spec texts', () => {
    expect(getQueryWarning('insert into t values (1)')).toMatchObject({
      kind: 'hasWriteOperation',
      message: 'This query contains write operations.',
      question: 'Are you sure you want to execute it?',
    })
    expect(WRITE_OPERATION_WARNING).toBe('This query contains write operations.')
    expect(RUN_CONFIRMATION_QUESTION).toBe('Are you sure you want to execute it?')
  })

  it.each([
    ['insert into t values (1)', ['insert']],
    ['update t set a = 1', ['update']],
    ['delete from t', ['delete']],
    ['alter table t add column c int', ['alter']],
    ['drop table t', ['drop']],
    ['create table t (id int)', ['create']],
    ['create or replace view v as select 1', ['create', 'replace']],
    ['select * from t for update', ['update']],
    ['select 1; delete from t', ['delete']],
    ['select * from t; DROP TABLE t', ['drop']],
    ["select replace(name, 'a', 'b') from t", ['replace']],
  ])('%s', (sql, keywords) => {
    const warning = getQueryWarning(sql)
    expect(warning?.kind).toBe('hasWriteOperation')
    expect(warning?.writeKeywords).toEqual(keywords)
  })

  it('requires every statement to start with select', () => {
    for (const sql of ['truncate t', 'select 1; truncate t', 'with x as (select 1) select * from x', 'vacuum', 'call p()', "do $$ begin perform 1; end $$", '(select 1)', 'values (1)', 'explain select 1']) {
      const warning = getQueryWarning(sql)
      expect(warning?.kind, sql).toBe('hasWriteOperation')
      expect(warning?.nonSelectStatements.length, sql).toBeGreaterThan(0)
    }
    expect(getQueryWarning('select 1; truncate t')?.nonSelectStatements).toEqual(['truncate'])
  })

  it('puts write operations ahead of unknown functions and still lists both', () => {
    const warning = getQueryWarning('select pg_sleep(1); delete from t')
    expect(warning).toMatchObject({ kind: 'hasWriteOperation', writeKeywords: ['delete'], unknownFunctions: ['pg_sleep'] })
  })

  it('is not fooled by a leading comment that hides a write', () => {
    expect(kind('/* select */ delete from t')).toBe('hasWriteOperation')
    expect(kind('-- select\ndrop table t')).toBe('hasWriteOperation')
  })
})

describe('getQueryWarning: function calls', () => {
  it('warns with the spec text', () => {
    expect(getQueryWarning('select pg_sleep(10)')).toMatchObject({
      kind: 'hasUnknownFunctions',
      message: 'This query involves running a function.',
      question: 'Are you sure you want to execute it?',
      unknownFunctions: ['pg_sleep'],
    })
    expect(FUNCTION_CALL_WARNING).toBe('This query involves running a function.')
  })

  it.each([
    ["select nextval('s')", ['nextval']],
    ['select my_function()', ['my_function']],
    ['select public.count(*) from t', ['public.count']],
    ['select "COUNT"(*) from t', ['"COUNT"']],
    ['select * from generate_series(1, 3)', ['generate_series']],
    ['select greatest(a, b), array_agg(c) from t', ['greatest', 'array_agg']],
    ['select pg_terminate_backend (123)', ['pg_terminate_backend']],
    ['select * from t where a = f(1) and b in (select g(2))', ['f', 'g']],
    ['select current_user', ['current_user']],
    ['select x from t /* c */ where y = now/**/()', []],
  ])('%s', (sql, functions) => {
    const warning = getQueryWarning(sql)
    if (functions.length === 0) {
      expect(warning).toBeNull()
      return
    }
    expect(warning?.kind).toBe('hasUnknownFunctions')
    expect(warning?.unknownFunctions).toEqual(functions)
  })

  // Tables, functions being defined and referenced tables are named with their schema too: not calls.
  it.each([
    ['create table public.projects (id int primary key); insert into public.todos (title) select g::text from generate_series(1, 3) g', ['generate_series']],
    ['create or replace function public.add_numbers(a int, b int) returns int language sql as $$ select a + b $$', []],
    ['create table "app"."items" (owner int references public.users(id))', []],
    ['insert into public.todos(title) values (public.slugify($1))', ['public.slugify']],
    // Key columns, index targets and methods, and COPY's column list are names too (issue 33, item 4).
    ['alter table public.projects add constraint f foreign key (owner) references public.todos(id)', []],
    ['create table t (a int, b int, primary key(a, b))', []],
    ['create index on public.todos(title)', []],
    ['create unique index i on todos using btree(lower(title))', []],
    ['create index concurrently if not exists i on only public.todos using gin(tags)', []],
    ['copy public.todos(title) from stdin', []],
    ['select * from a join b on f(a.x) = b.y', ['f']],
  ])('lists only the functions called in %s', (sql, functions) => {
    expect(getQueryWarning(sql)?.unknownFunctions).toEqual(functions)
  })

  it('ignores function-like text in strings, comments, dollar quotes and quoted identifiers', () => {
    expect(kind("select 'pg_sleep(1)', $$nextval('s')$$, \"f(x)\" -- g(1)\n from t")).toBeNull()
  })
})
