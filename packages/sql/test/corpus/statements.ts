/**
 * A table-driven statement corpus for packages/sql. Each entry states what the specs' rules say
 * about one piece of SQL:
 *
 * - statements: how many statements it holds (splitStatementsByLexer; the real parser must agree
 *   unless the entry is marked `invalid`);
 * - warning: the SQL panel's run gate (the API docs and assistant spec's validation rules, getQueryWarning):
 *   null when the query may run without confirmation, otherwise hasWriteOperation or
 *   hasUnknownFunctions;
 * - destructive: the destructive patterns (the SQL editor spec's validation rules,
 *   findDestructiveOperations), in order;
 * - autoLimit100: the SQL after applyAutoLimit(sql, 100) (the SQL editor spec's auto-limit rule: appended only to a single
 *   plain select statement with no comment, no existing limit or fetch-first clause), or null
 *   when it is left alone;
 * - parameters: the `:name` parameters used (the SQL editor spec's parameters, parseParameters), in order of first use.
 *   Omitted means none.
 * - readOnlyError: for SQL that passes the gate but fails on the read-only connection (the read-only-first rule),
 *   the error the server gives and whether it escalates to the full connection.
 *
 * Where a spec is ambiguous the expectation follows the implementation and `why` says so
 * ("ambiguous:").
 */
import type { DestructiveKind, QueryWarningKind } from '../../src/index.js'

export interface ExpectedParameter {
  name: string
  occurrences: number
  type?: string | undefined
  defaultValue?: string | undefined
  possibleValues?: string[] | undefined
}

export interface Expectation {
  statements: number
  warning: QueryWarningKind | null
  /** Pinned when the entry is about which words count (getQueryWarning's writeKeywords). */
  writeKeywords?: string[]
  /** Pinned when the entry is about which calls count (getQueryWarning's unknownFunctions). */
  unknownFunctions?: string[]
  destructive: DestructiveKind[]
  autoLimit100: string | null
  parameters?: ExpectedParameter[]
}

export interface CorpusEntry {
  sql: string
  why: string
  expect: Expectation
  /** Deliberately invalid SQL (half-typed, unterminated): the real parser must reject it. */
  invalid?: true
  /** The error the read-only connection gives, and whether it asks for the full connection. */
  readOnlyError?: { code?: string; message: string; escalates: boolean }
}

export interface CorpusGroup {
  name: string
  entries: CorpusEntry[]
}

type Overrides = Partial<Expectation> & Pick<CorpusEntry, 'invalid' | 'readOnlyError'>

/**
 * A single plain select that runs without confirmation, has no destructive pattern and gets
 * ` limit 100` appended at its end; `overrides` changes what differs.
 */
function select(sql: string, why: string, overrides: Overrides = {}): CorpusEntry {
  const { invalid, readOnlyError, ...expect } = overrides
  return {
    sql,
    why,
    expect: { statements: 1, warning: null, destructive: [], autoLimit100: `${sql} limit 100`, ...expect },
    ...(invalid ? { invalid } : {}),
    ...(readOnlyError ? { readOnlyError } : {}),
  }
}

/** SQL that must be confirmed as a write: not a plain select, so never limited. */
function write(sql: string, why: string, overrides: Overrides = {}): CorpusEntry {
  return select(sql, why, { warning: 'hasWriteOperation', autoLimit100: null, ...overrides })
}

/** A single select that calls a function outside the allowed list. */
function call(sql: string, why: string, unknownFunctions: string[], overrides: Overrides = {}): CorpusEntry {
  return select(sql, why, { warning: 'hasUnknownFunctions', unknownFunctions, ...overrides })
}

// ---------------------------------------------------------------------------------------------
// Plain selects: allowed functions, bare current_date/current_timestamp, `in` lists, casts,
// operators and aliases named like keywords. They run at once and get the row limit.
// ---------------------------------------------------------------------------------------------
const plainSelects: CorpusEntry[] = [
  select('select * from users', 'the simplest select runs and is limited'),
  select('SELECT id, name FROM public.users WHERE id = 1', 'upper-case keywords and a schema-qualified table'),
  select('select 1', 'a constant select'),
  select('select', 'an empty select list is valid Postgres and still a plain select'),
  select('select count(*), sum(amount), avg(amount), min(amount), max(amount) from orders', 'the allowed aggregates count, sum, avg, min, max'),
  select("select coalesce(a, 0), nullif(b, '') from t", 'the allowed coalesce and nullif'),
  select('select length(name), lower(name), upper(name), trim(name) from users', 'the allowed length, lower, upper, trim'),
  select('select substring(name from 1 for 3), substring(name, 2) from users', 'substring in both spellings (from/for keywords are not calls)'),
  select("select to_char(created_at, 'YYYY-MM'), to_date('2024-01-01', 'YYYY-MM-DD') from t", 'the allowed to_char and to_date'),
  select('select extract(year from created_at), extract(epoch from now()) from t', 'extract with from inside and a nested now()'),
  select("select date(created_at), date_trunc('month', created_at) from events", 'the allowed date and date_trunc'),
  select("select string_agg(name, ', ' order by name) from users", 'string_agg with an ordered argument list'),
  select('select now(), left(name, 2) from users', 'the allowed now and left'),
  select("select trim(both 'x' from name), trim(leading from name) from users", 'trim with its keyword arguments'),
  select('select upper(lower(trim(name))) from users', 'allowed functions nested in each other'),
  select('select coalesce(sum(a), 0), count(distinct b) from t', 'an aggregate inside coalesce and count(distinct ...)'),
  select('select count (*) from t', 'a space between the function name and its parenthesis'),
  select('select pg_catalog.count(*), pg_catalog.lower(name) from t', 'allowed functions qualified with pg_catalog are the built-ins'),
  select('select "count"(*) from t', 'ambiguous: a quoted lower-case "count" names the same allowed function'),
  select('select current_date, current_timestamp', 'the bare words current_date and current_timestamp are allowed'),
  select('select CURRENT_DATE - 7 as week_ago', 'a bare allowed word in upper case, in arithmetic'),
  select('select * from events where at < current_timestamp and day >= current_date', 'bare allowed words in a where clause'),
  select('select * from t where id in (1, 2, 3)', 'an `in` list is allowed (the spec lists `in`)'),
  select("select * from t where status IN ('a', 'b') and kind not in ('x')", '`IN` and `not in` lists of strings'),
  select('select * from t where id not in (select user_id from bans)', '`in` with a subquery'),
  select('select * from t where (a, b) in ((1, 2), (3, 4))', '`in` with row values'),
  select("select id::text, amount::numeric(10, 2), '2024-01-01'::date from t", 'casts with :: and a type modifier are not calls'),
  select('select cast(id as text), cast(a as varchar(20)) from t', 'cast(... as type(n)) is syntax, not a call'),
  select('select cast(a as character varying(20)), b::bit varying(8) from t', 'two-word types with a modifier (character varying(n)) are not calls'),
  select("select interval '1 day', date '2024-01-01', timestamp '2024-01-01 00:00'", 'typed literals: date without parentheses is not a call'),
  select("select a + b * c / d - e % f, a || b, a ->> 'k', a @> '{}' from t", 'arithmetic, concatenation and json operators'),
  select('select a <> b, a != b, a >= b, not a, a is null, a is not distinct from b from t', 'comparison operators and is-predicates'),
  select("select x from t where y ilike '%a%' and z similar to 'b%' and w between 1 and 10", 'ilike, similar to and between'),
  select('select * from t where a = any (array[1, 2]) and b = all (select 1)', 'any/all and the array constructor are syntax'),
  select('select array[1, 2, 3], array(select 1), row(1, 2)', 'array and row constructors are not calls'),
  select("select case when a > 0 then 'pos' else 'neg' end from t", 'a case expression'),
  select('select * from t where exists (select 1 from u where u.id = t.id)', 'exists (...) is syntax'),
  select("select now() at time zone 'utc'", 'at time zone after an allowed call'),
  select('select distinct on (a) a, b from t order by a, b', 'distinct on (...) is syntax'),
  select('select a, count(*) from t group by a having count(*) > 1', 'group by and having with an allowed aggregate'),
  select('select * from a join b on a.id = b.a_id left join c using (id)', 'joins: left join is not the left() function, using (...) is syntax'),
  select('select sum(a) over (partition by b order by c) from t', 'an allowed aggregate used as a window function'),
  select('select count(*) filter (where paid) from orders', 'an allowed aggregate with a filter clause'),
  select('select * from t as x(a, b)', 'as x(a, b) names the columns of an alias'),
  select('select * from t x(a, b)', 'x(a, b) without as is still an alias with column names, not a call'),
  select('select * from "Users" u(a, b)', 'a column alias list after a quoted table name is not a call'),
  select('select * from (select 1) as g(n)', 'a subquery alias with a column list'),
  select('select * from (with x as (select 1) select * from x) s', 'a CTE inside a subquery: the statement still starts with select'),
  select('select count(*) as created, max(x) as updated, min(y) as deleted from t', 'aliases named like the ordinary words'),
  select('select id as key, name as value, kind as type from t', 'aliases named like non-reserved keywords'),
  select('select 1 as "select", 2 as "from", 3 as "limit"', 'quoted aliases named like reserved keywords'),
  select('select 1 as limit', 'an alias named limit (allowed after as) is not a limit clause, so the limit is appended'),
  select('select t.limit, t.offset, t.into from t', 'qualified columns named limit, offset and into are no limit or into clause'),
  select('select $1::int', 'a positional parameter $1 is not a named parameter'),
  select('select a from t where b @@ c and d ~ e', 'text-search and regex operators'),
  select("select lower(name) collate \"C\" from t", 'collate after an allowed call'),
]

// ---------------------------------------------------------------------------------------------
// The ordinary words created, inserted, updated, deleted and truncated (spec: they do not count
// as write keywords), and write keywords where they are not code: strings, comments, dollar
// quotes, quoted or qualified identifiers.
// ---------------------------------------------------------------------------------------------
const ordinaryWords: CorpusEntry[] = [
  select('select created, inserted, updated, deleted, truncated from audit_log', 'the five ordinary words as column names'),
  select('select Created, UPDATED, Deleted from audit_log', 'the ordinary words in any letter case'),
  select('select * from t where deleted = false and truncated is not true', 'the ordinary words in a where clause'),
  select("select 'row was updated', 'deleted' as s from t", 'the ordinary words in strings'),
  select('select created_at, updated_at, deleted_at from t', 'words that merely contain a write keyword'),
  select('select * from deleted_users d where d.updated > d.created', 'a table named deleted_users'),
  select('select inserted_count, replaced_by, dropped, altered from stats', 'other words built on write keywords are not write keywords'),
  select("select 'insert into t values (1); drop table t' as example", 'write keywords and a semicolon inside a string'),
  select('select $$drop table t; delete from u$$ as example', 'write keywords inside a dollar-quoted string'),
  select('select $q$ update t set a = 1 $q$ as example', 'an update inside a tagged dollar quote'),
  select('select "update", "delete", "insert" from "create"', 'quoted identifiers spelling write keywords'),
  select('select t.update, t.delete, t.drop, t.alter from t', 'ambiguous: write keywords qualified by a table are column names'),
  write('select update from t', 'ambiguous: an unqualified column named update is still the write keyword update (a single select, so limited)', {
    writeKeywords: ['update'],
    autoLimit100: 'select update from t limit 100',
  }),
  write('select delete from t', 'ambiguous: a column named delete is the write keyword, but no delete statement (a single select, so limited)', {
    writeKeywords: ['delete'],
    autoLimit100: 'select delete from t limit 100',
  }),
  write('select a as delete from t', 'ambiguous: an alias spelled delete is still the write keyword delete (a single select, so limited)', {
    writeKeywords: ['delete'],
    autoLimit100: 'select a as delete from t limit 100',
  }),
  select('select 1 as one -- drop table t', 'write keywords in a line comment (the comment blocks the limit)', { autoLimit100: null }),
  select('select 1 /* delete from t; update t set a = 1 */', 'write keywords in a block comment', { autoLimit100: null }),
]

// ---------------------------------------------------------------------------------------------
// Write keywords in every position: DML, CTEs with insert/update/delete ... returning, select
// into, create table as, DDL, replace in create or replace and as a function, grant/revoke,
// copy, vacuum, explain analyze, call and DO blocks.
// ---------------------------------------------------------------------------------------------
const writes: CorpusEntry[] = [
  write('insert into t (a) values (1)', 'insert', { writeKeywords: ['insert'] }),
  write('insert into t select * from u returning id', 'insert ... select ... returning'),
  write("INSERT INTO t VALUES (1, 'x')", 'insert in upper case'),
  write('update t set a = 1 where id = 2', 'update with a where clause is a write, not destructive', { writeKeywords: ['update'] }),
  write('delete from t where id = 1', 'delete with a where clause is destructive', { destructive: ['delete'], writeKeywords: ['delete'] }),
  write('with d as (delete from t where old returning *) select count(*) from d', 'a CTE with delete ... returning', { destructive: ['delete'] }),
  write('with u as (update t set a = 1 where b returning *) select * from u', 'a CTE with update ... where ... returning'),
  write('with u as (update t set a = 1 returning *) select * from u', 'a CTE with update ... returning and no where', { destructive: ['update-without-where'] }),
  write('with i as (insert into t values (1) returning id) select id from i', 'a CTE with insert ... returning'),
  write('with x as (select 1) update t set a = 1', 'a CTE in front of an update without where', { destructive: ['update-without-where'] }),
  write('with recursive r(n) as (select 1 union all select n + 1 from r where n < 10) select * from r', 'ambiguous: a read-only CTE does not start with select, so it is confirmed as a write', { writeKeywords: [] }),
  select('select * into new_table from t', 'select into creates a table but holds no write keyword of the spec: it runs (never limited) and the read-only connection refuses it', {
    autoLimit100: null,
    readOnlyError: { code: '25006', message: 'cannot execute SELECT INTO in a read-only transaction', escalates: true },
  }),
  write('create table t2 as select * from t', 'create table as', { writeKeywords: ['create'] }),
  write("create table t (id bigint primary key, name text not null default '')", 'create table'),
  write('create index concurrently on t (a)', 'create index'),
  write('create or replace view v as select 1', 'replace in create or replace', { writeKeywords: ['create', 'replace'] }),
  write('create or replace function f() returns int language sql as $$ select 1 $$', 'create or replace function with a dollar-quoted body'),
  write("create function f() returns int language plpgsql as $body$ begin delete from t; return 1; end; $body$", 'ambiguous: a dollar-quoted function body is not run, so its delete is no destructive pattern'),
  write('create or replace procedure p() language sql begin atomic delete from t; end', 'ambiguous: a SQL-standard body is written as code, so its delete from counts', { destructive: ['delete'] }),
  write('alter table t add column c int', 'alter table add column', { writeKeywords: ['alter'] }),
  write('alter table t rename to u', 'alter table rename'),
  write('drop view if exists v', 'drop view', { destructive: ['drop'], writeKeywords: ['drop'] }),
  write("select replace(name, 'a', 'b') from t", 'the function replace spells the write keyword replace (still a single plain select, so limited)', {
    writeKeywords: ['replace'],
    autoLimit100: "select replace(name, 'a', 'b') from t limit 100",
  }),
  write('grant select, insert on t to app', 'grant with a write privilege', { writeKeywords: ['insert'] }),
  write('revoke delete on t from app', 'revoke delete is no delete statement', { writeKeywords: ['delete'] }),
  write('grant usage on schema s to r', 'grant without write keywords does not start with select', { writeKeywords: [] }),
  write('copy t to stdout', 'copy out does not start with select'),
  write("copy t from '/tmp/x.csv' with (format csv)", 'copy in'),
  write('vacuum analyze t', 'vacuum'),
  write('explain analyze delete from t where id = 1', 'explain analyze runs the delete', { destructive: ['delete'] }),
  write('explain select * from t', 'ambiguous: explain of a select does not start with select'),
  write('call refresh_stats()', 'call a procedure'),
  write("call p(1, 'x')", 'call with arguments'),
  write('do $$ begin insert into t values (1); end $$', 'a DO block with $$ body'),
  write('do $$ begin delete from t; end $$', 'a delete inside a DO block runs at once', { destructive: ['delete'] }),
  write("do $body$ begin raise notice 'a; b'; perform pg_sleep(1); end $body$", 'a $tag$ DO body with semicolons in a string'),
  write('DO $fn$ declare n int; begin update t set a = 1; truncate u; end $fn$', 'a DO body with update without where and truncate', { destructive: ['update-without-where', 'truncate'] }),
  write('do $$ begin drop table if exists t; end $$; select 1', 'a DO block followed by a select', { statements: 2, destructive: ['drop'] }),
  write('do language plpgsql $$ begin alter table t drop column c; end $$', 'DO with a language clause before the body', { destructive: ['alter-table-drop-column'] }),
  write('do $$ begin if x then delete from t; else update t set a = 1 where b; end if; end $$', 'commands after then and else in a DO body', { destructive: ['delete'] }),
  write("do $$ begin raise notice 'drop table x'; end $$", 'keywords in a string inside a DO body are not commands'),
  write('do $outer$ begin execute $inner$ drop table t $inner$; end $outer$', 'ambiguous: dynamic SQL in a nested dollar quote is text, not a command'),
  write("do 'begin truncate t; end'", 'a DO body written as a plain string', { destructive: ['truncate'] }),
  write('select * from t for update', 'ambiguous: for update spells the write keyword update; the limit still applies to this single select', {
    writeKeywords: ['update'],
    autoLimit100: 'select * from t for update limit 100',
  }),
  write('select * from t for no key update skip locked', 'a row lock spelled with update', { autoLimit100: 'select * from t for no key update skip locked limit 100' }),
  write('merge into t using s on t.id = s.id when matched then update set a = s.a when not matched then insert values (s.id)', 'ambiguous: merge update only touches matched rows, so it is no update without where'),
  write('merge into t using s on t.id = s.id when matched then delete', 'merge ... then delete', { destructive: ['delete'] }),
  write('insert into t values (1) on conflict (id) do update set a = excluded.a', 'an upsert updates only the conflicting rows'),
  write('create trigger tr before update or delete on t for each row execute function f()', 'update and delete as trigger events'),
  write("comment on table t is 'deleted rows'", 'comment on does not start with select'),
  write('refresh materialized view mv', 'refresh materialized view'),
  write('set search_path to public', 'set'),
  write('begin; update t set a = 1 where id = 1; commit', 'a transaction of three statements', { statements: 3 }),
  write('select 1; delete from t', 'a select followed by a delete', { statements: 2, destructive: ['delete'], writeKeywords: ['delete'] }),
  write('select 1; truncate t', 'ambiguous: every statement must start with select, so a trailing truncate (not a spec write keyword) still warns', {
    statements: 2,
    destructive: ['truncate'],
    writeKeywords: [],
  }),
  write('lock table t in access exclusive mode', 'lock table'),
  write("notify ch, 'x'", 'notify'),
  write('prepare q as select 1', 'prepare'),
  write('prepare q (int) as delete from t where id = $1', 'a delete prepared with as is a delete statement', { destructive: ['delete'] }),
  write('create extension if not exists pgcrypto', 'create extension'),
  write('create rule r as on delete to t do instead nothing', 'on delete in a rule is an event, not a delete'),
  write('create policy p on t for delete using (true)', 'for delete in a policy is an event'),
  write('create table c (id int references p on delete cascade on update cascade)', 'on delete/on update in a foreign key'),
  write('grant delete, truncate on t to r', 'delete and truncate as privileges are not commands'),
]

// ---------------------------------------------------------------------------------------------
// Functions outside the allowed list: pg_sleep, set-returning functions in from, schema
// qualified calls, quoted names, window functions, aggregates with filter, bare value words.
// ---------------------------------------------------------------------------------------------
const unknownFunctions: CorpusEntry[] = [
  call('select pg_sleep(10)', 'pg_sleep', ['pg_sleep'], {
    readOnlyError: { code: '57014', message: 'canceling statement due to statement timeout', escalates: false },
  }),
  call('select * from generate_series(1, 10) as g(n)', 'a set-returning function in from; the alias columns are no call', ['generate_series']),
  call('select * from generate_series(1, 3) g(n)', 'a set-returning function with an alias list after its parenthesis', ['generate_series']),
  call('select n from unnest(array[1, 2]) with ordinality as u(n, i)', 'unnest with ordinality', ['unnest']),
  call('select * from t, lateral jsonb_each(t.doc) e', 'a lateral set-returning function', ['jsonb_each']),
  call('select * from a cross join lateral f(a.id) as x(y)', 'cross join lateral f(...)', ['f']),
  call('select public.my_func(1)', 'a schema-qualified call', ['public.my_func']),
  call('select auth.uid()', 'a schema-qualified call without arguments', ['auth.uid']),
  call('select public.count(*) from t', "another schema's count is not the allowed count", ['public.count']),
  call('select pg_catalog.pg_sleep(1)', 'pg_catalog does not make pg_sleep allowed', ['pg_catalog.pg_sleep']),
  call('select "MyFunc"(1)', 'a quoted function name', ['"MyFunc"']),
  call('select "COUNT"(*) from t', 'a quoted upper-case COUNT is another function than count', ['"COUNT"']),
  call('select row_number() over (order by id) from t', 'a window function', ['row_number']),
  call('select rank() over w from t window w as (order by a)', 'a window function over a named window', ['rank']),
  call('select array_agg(x) filter (where x > 0) from t', 'an aggregate outside the list with a filter clause', ['array_agg']),
  call('select json_agg(t) from t', 'json_agg', ['json_agg']),
  call("select nextval('seq')", 'nextval writes a sequence', ['nextval'], {
    readOnlyError: { code: '25006', message: 'cannot execute nextval() in a read-only transaction', escalates: true },
  }),
  call("select set_config('a.b', 'c', false)", 'set_config', ['set_config']),
  call('select current_user', 'ambiguous: a bare value word outside the two allowed ones counts as a call', ['current_user']),
  call('select session_user, current_schema', 'ambiguous: more bare value words counted as calls', ['session_user', 'current_schema']),
  call('select localtimestamp, current_time', 'ambiguous: localtimestamp and current_time are not among the allowed bare words', ['localtimestamp', 'current_time']),
  call('select * from t where a = greatest(1, b)', 'a call in a where clause', ['greatest']),
  call('select right(name, 2) from t', 'right is not allowed although left is', ['right']),
  call("select position('a' in name) from t", 'position(... in ...) is a function; `in` inside it is syntax', ['position']),
  call('select txid_current()', 'txid_current', ['txid_current']),
  call('select count(*), pg_sleep(1) from t', 'an unknown call next to an allowed one', ['pg_sleep']),
  call('select coalesce(my_fn(a), 0) from t', 'an unknown call nested in an allowed one', ['my_fn']),
  call('select * from t where id in (select f(x) from u)', 'an unknown call in an `in` subquery', ['f']),
  call('select x from t order by random()', 'an unknown call in order by', ['random']),
  call('select 1 where exists (select pg_sleep(1))', 'an unknown call inside exists', ['pg_sleep']),
  call('select distinct on (a) pg_sleep(1) from t', 'a call right after distinct on (...) is still a call', ['pg_sleep']),
  call('select 1 operator(pg_catalog.+) pg_sleep(1)', 'a call right after operator(...) is still a call', ['pg_sleep']),
  select('select a operator(pg_catalog.+) b from t', 'operator(...) is syntax, not a call'),
  select('select distinct on (a) upper(b) from t order by a', 'an allowed call right after distinct on (...)'),
  call('select * from t where id in (select distinct on (b) f(b) from u)', 'a call after distinct on inside a subquery', ['f']),
  select('select * from unnest(a) with ordinality x(v, n)', 'unnest with ordinality and an alias list without as', { warning: 'hasUnknownFunctions' }),
  call('select xmlserialize(content f(x) as text)', 'a call after the content keyword of xmlserialize', ['xmlserialize', 'f']),
  call("select json_object('a' value f(1))", 'a call after the value keyword of json_object', ['json_object', 'f']),
  call('select sum(a) over (order by b rows f(1) preceding) from t', 'a call as a window frame bound', ['f']),
  call('select sum(a) over (order by b range f(1) preceding) from t', 'a call after range as a window frame bound', ['f']),
  call("select xmlroot(x, version f(1))", 'a call after the version keyword of xmlroot', ['xmlroot', 'f']),
  select('select COUNT(*), Max(a) from t', 'allowed functions in any letter case'),
  select('select ñame from tábla', 'non-ASCII identifiers'),
  call("select a from t where b @@ to_tsquery('x')", 'to_tsquery', ['to_tsquery']),
  call("select date_part('year', now())", 'date_part is not the allowed date_trunc', ['date_part']),
  call('select extract(year from age(created_at)) from t', 'an unknown call inside extract', ['age']),
  call('select count(*) from t where pg_sleep(1) is null', 'an unknown call in a predicate', ['pg_sleep']),
  call('select * from t tablesample system (10)', 'ambiguous: a tablesample method is invoked like a function', ['system']),
  call('select f(1); select g(2)', 'unknown calls in two selects (two statements: no limit)', ['f', 'g'], { statements: 2, autoLimit100: null }),
  write('select pg_sleep(1); delete from t', 'a write outranks an unknown function, both are listed', {
    statements: 2,
    destructive: ['delete'],
    unknownFunctions: ['pg_sleep'],
  }),
  select('select 1 / 0', 'division is no call; its error does not ask for the full connection', {
    readOnlyError: { code: '22012', message: 'division by zero', escalates: false },
  }),
  select('select * from payroll', 'a plain select refused for lack of privileges escalates to the full connection', {
    readOnlyError: { code: '42501', message: 'permission denied for table payroll', escalates: true },
  }),
  select('select * from missing', 'a missing table is no permission problem', {
    readOnlyError: { code: '42P01', message: 'relation "missing" does not exist', escalates: false },
  }),
  call('select audit.touch(1)', 'a function refused on the read-only connection, recognised by its message alone', ['audit.touch'], {
    readOnlyError: { message: 'permission denied for function touch', escalates: true },
  }),
]

// ---------------------------------------------------------------------------------------------
// Tricky literals: doubled quotes, E'' strings with \' escapes, dollar quotes with nested
// different tags, U&'' strings, bit/hex/national strings, string continuation, numbers.
// ---------------------------------------------------------------------------------------------
const literals: CorpusEntry[] = [
  select("select 'it''s', 'a''b''c' from t", 'doubled quotes inside strings'),
  select("select 'it''s; drop table t' as s", 'a doubled quote, a semicolon and a drop in one string'),
  select("select '' as empty, '''' as quote", 'an empty string and a string holding one quote'),
  select("select E'it\\'s; delete from t' as s", "an E'' string with a \\' escape and a semicolon"),
  select("select e'\\\\' as backslash, 'x' as y", "an e'' string holding one escaped backslash"),
  { sql: "select E'a\\\\'; select 2", why: "an E'' string ending in an escaped backslash, then a second statement", expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: "select 'C:\\path\\' as p; select 2", why: "a backslash does not escape in a standard '' string", expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  select("select E'\\'; select 2 --' as s", "an E'' string holding a semicolon and --, all one string"),
  select("select E'\\x41\\n\\t' as s", "octal/hex escapes in an E'' string"),
  select("select $$it's; a \"b\" -- not a comment$$ as s", 'a dollar quote holding a quote, a semicolon and --'),
  select('select $a$ $b$ inner; $b$ ; $a$ as nested', 'a dollar quote with another tag nested in it'),
  select('select $tag$ $$ ; $$ $tag$, $$ $tag$ $$', 'a $$ inside $tag$ and a $tag$ inside $$'),
  select('select $_x1$ ;drop table t; $_x1$ as s', 'a tag with underscore and digit hides a drop'),
  select("select $$'$$ as q", 'a lone quote inside a dollar quote'),
  select('select $a$$a$ as empty, $$$$ as empty2', 'empty dollar-quoted strings'),
  { sql: "select 'a' as \"b;c\"; select 2", why: 'a semicolon in a quoted alias, then a second statement', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  select('select a$b$c from t', 'a $ inside an identifier starts no dollar quote'),
  select("select U&'d\\0061t\\+000061' as s", "a U&'' string with unicode escapes"),
  select("select U&'!0041' uescape '!'", "a U&'' string with its own escape character"),
  select('select U&"d\\0061ta" from t', 'a U&"" quoted identifier'),
  select("select B'1010', X'ff', N'nat' from t", 'bit, hex and national strings'),
  select("select 'a'\n  'b' as s", 'two strings on separate lines are one string'),
  select("select 'x:y', ':not_a_param', $$ :nor_this $$", 'colon-names inside strings and dollar quotes are no parameters'),
  select("select 'pg_sleep(1)' as s, $q$nextval('x')$q$ as t", 'calls inside strings and dollar quotes are not calls'),
  select("select '--not a comment' as a, '/* nor this */' as b", 'comment markers inside strings are not comments, so the limit applies'),
  select('select 1.5e3, .5, 1_000, 0x1F', 'numeric literals with exponent, leading dot, underscores and hex'),
  { sql: "select 'é😀;' as s; select 2", why: 'a semicolon after multi-byte characters in a string', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: 'select "$$"; select $$"$$', why: 'a $$ inside a quoted identifier and a quote inside $$', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  select("select 'abc", 'ambiguous: an unterminated string is half-typed: no limit', { autoLimit100: null, invalid: true }),
  select('select $$ open; drop table t', 'an unterminated dollar quote swallows the rest', { autoLimit100: null, invalid: true }),
]

// ---------------------------------------------------------------------------------------------
// Comments: line and nested block comments, comments holding semicolons and keywords, a
// comment before a write, `--` in strings. Any comment blocks the row limit.
// ---------------------------------------------------------------------------------------------
const comments: CorpusEntry[] = [
  select('-- leading comment\nselect * from t', 'ambiguous: a leading comment does not stop the query starting with select; it blocks the limit', { autoLimit100: null }),
  select('select * from t -- all of them', 'a trailing line comment blocks the limit', { autoLimit100: null }),
  select('/* block */ select 1', 'a block comment blocks the limit', { autoLimit100: null }),
  select('select /* a /* nested */ still comment; drop table t */ 1', 'a nested block comment with a semicolon and a drop', { autoLimit100: null }),
  select('select 1 /* /* */ */', 'a nested block comment closes only at its last */', { autoLimit100: null }),
  select('select 1 -- ; drop table t\n, 2', 'a line comment with a semicolon ends at the line break', { autoLimit100: null }),
  select('/* delete from t; */ select 1', 'a delete inside a comment is no write', { autoLimit100: null }),
  select("/* it's */ select 1", 'a quote inside a comment opens no string', { autoLimit100: null }),
  select("select 'a--b' -- real comment", '`--` inside a string, then a real comment', { autoLimit100: null }),
  select('select 1; -- done', 'a comment after the last semicolon is no statement, but it is a comment', { autoLimit100: null }),
  select('select a from t /* c */ where b = now/**/()', 'a comment between a function name and its parenthesis', { autoLimit100: null }),
  select('select 1 /* unterminated', 'an unterminated block comment', { autoLimit100: null, invalid: true }),
  { sql: 'select 1 /* /* */ */ ; select 2', why: 'a nested comment before a semicolon that ends a statement', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: 'select 1 -- c\r; select 2', why: 'a line comment also ends at a carriage return', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: '-- only a comment', why: 'a comment alone holds no statement', expect: { statements: 0, warning: null, destructive: [], autoLimit100: null } },
  { sql: '/* a */ -- b\n/* c; d */', why: 'comments alone, one holding a semicolon', expect: { statements: 0, warning: null, destructive: [], autoLimit100: null } },
  write('-- select\ndelete from t', 'a comment saying select does not make a delete start with select', { destructive: ['delete'] }),
  write('/* select */ update t set a = 1', 'a block comment before an update without where', { destructive: ['update-without-where'] }),
  write('update t set a = 1 -- where id = 1', 'a where clause in a comment does not count', { destructive: ['update-without-where'] }),
]

// ---------------------------------------------------------------------------------------------
// Quoted identifiers holding semicolons, keywords, quotes and parentheses.
// ---------------------------------------------------------------------------------------------
const quotedIdentifiers: CorpusEntry[] = [
  select('select "a;b" from "weird;table"', 'semicolons inside quoted identifiers'),
  select('select "select", "drop table x;" from "delete"', 'keywords and a semicolon inside quoted identifiers'),
  select('select "say ""hi""; now" from t', 'doubled double quotes and a semicolon in a quoted identifier'),
  select('select "it\'s" from t', 'a single quote inside a quoted identifier opens no string'),
  select('select "pg_sleep", "f(x)" from t', 'a quoted name that is not followed by a parenthesis is a column'),
  select('select "-- x", "/* y */" from t', 'comment markers inside quoted identifiers are not comments'),
  select('select * from "Users" as "u" where "u"."limit" > 1', 'a quoted column named limit is no limit clause'),
  select('select "fetch" from t', 'a quoted column named fetch is no fetch clause'),
  select('select * from "T" where "deleted" and "truncated"', 'quoted ordinary words'),
  select('select t."update" from t', 'a quoted and qualified update'),
  write('update "T" set "A" = 1', 'a quoted table in an update without where', { destructive: ['update-without-where'] }),
  write('drop table "my;table"', 'a semicolon in the dropped table name', {
    destructive: ['drop'],
    readOnlyError: { message: 'must be owner of table my;table', escalates: true },
  }),
]

// ---------------------------------------------------------------------------------------------
// Several statements, empty statements (;;), trailing semicolons and whitespace.
// ---------------------------------------------------------------------------------------------
const multipleStatements: CorpusEntry[] = [
  { sql: 'select 1; select 2', why: 'two selects run without confirmation but get no limit', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  select('select 1;;', 'empty statements after one select do not count: the limit goes before the first semicolon', { autoLimit100: 'select 1 limit 100;;' }),
  select('select * from t;', 'a trailing semicolon: the limit goes before it', { autoLimit100: 'select * from t limit 100;' }),
  select('select * from t;\n', 'a trailing semicolon and newline', { autoLimit100: 'select * from t limit 100;\n' }),
  select('  SELECT * FROM t  ;  \n', 'whitespace around the statement and the semicolon is kept', { autoLimit100: '  SELECT * FROM t limit 100  ;  \n' }),
  select('\n\n select 1 \n\n', 'leading and trailing blank lines', { autoLimit100: '\n\n select 1 limit 100 \n\n' }),
  select(';;select 1', 'empty statements before the select', { autoLimit100: ';;select 1 limit 100' }),
  { sql: ';;select 1;;;select 2;;', why: 'empty statements everywhere', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: 'select 1 ; ; select 2', why: 'an empty statement between two selects', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: 'select 1;\n\n  select 2;\n', why: 'statements on their own lines with trailing semicolon', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: 'select 1\n;\nselect 2', why: 'semicolons on their own lines', expect: { statements: 2, warning: null, destructive: [], autoLimit100: null } },
  { sql: ';', why: 'a lone semicolon holds no statement', expect: { statements: 0, warning: null, destructive: [], autoLimit100: null } },
  { sql: '   \n\t', why: 'whitespace only holds no statement', expect: { statements: 0, warning: null, destructive: [], autoLimit100: null } },
  { sql: '', why: 'empty SQL holds no statement and is not run', expect: { statements: 0, warning: null, destructive: [], autoLimit100: null } },
  write('insert into t values (1); insert into t values (2); select * from t', 'two inserts and a select', { statements: 3 }),
  write('select 1;\nDROP TABLE t;\nselect 2', 'a drop between two selects', { statements: 3, destructive: ['drop'] }),
  write('select 1; update t set a = 1; delete from u where x', 'destructive patterns are reported in statement order', {
    statements: 3,
    destructive: ['update-without-where', 'delete'],
  }),
  write("create rule r as on insert to t do also (insert into a values (1); insert into b values (2)); select 5", 'semicolons inside the parenthesised actions of a rule', { statements: 2 }),
  write('create function f() returns int language sql begin atomic select 1; select 2; end; select 3', 'semicolons inside a BEGIN ATOMIC body', { statements: 2 }),
]

// ---------------------------------------------------------------------------------------------
// Destructive patterns (the SQL editor spec's validation rules): delete, drop, truncate, alter table drop column;
// update without where is dangerous too. Drop constraint is not drop column.
// ---------------------------------------------------------------------------------------------
const destructive: CorpusEntry[] = [
  write('delete from t', 'delete without where', { destructive: ['delete'] }),
  write('DELETE FROM t WHERE id = 1', 'delete with where is destructive all the same', { destructive: ['delete'] }),
  write('delete from only t using u where t.id = u.id', 'delete ... using', { destructive: ['delete'] }),
  write('delete from t where id in (select id from u where x)', 'delete with a subquery', { destructive: ['delete'] }),
  write('truncate t', 'truncate', { destructive: ['truncate'] }),
  write('truncate table a, b, c restart identity cascade', 'truncate of several tables is one pattern', { destructive: ['truncate'] }),
  write('TRUNCATE only a, b', 'truncate only, upper case', { destructive: ['truncate'] }),
  write('drop table if exists a, b cascade', 'drop table if exists ... cascade', { destructive: ['drop'] }),
  write('drop schema if exists s cascade', 'drop schema', { destructive: ['drop'] }),
  write('drop function if exists f(int, text) cascade', 'drop function: f(int, text) is a signature, not a call', { destructive: ['drop'], unknownFunctions: [] }),
  write('drop index concurrently if exists i', 'drop index', { destructive: ['drop'] }),
  write('drop owned by r', 'drop owned', { destructive: ['drop'] }),
  write('alter table t drop column c', 'alter table drop column', { destructive: ['alter-table-drop-column'], readOnlyError: { code: '42501', message: 'must be owner of table t', escalates: true } }),
  write('alter table t drop column if exists c cascade', 'drop column if exists ... cascade', { destructive: ['alter-table-drop-column'] }),
  write('alter table if exists only public.t drop c', 'the column keyword is optional', { destructive: ['alter-table-drop-column'] }),
  write('ALTER TABLE t DROP COLUMN "Weird Column"', 'upper case and a quoted column', { destructive: ['alter-table-drop-column'] }),
  write('alter table t drop constraint t_pkey', 'drop constraint is not drop column'),
  write('alter table t drop constraint if exists c, drop column d', 'drop constraint and drop column in one alter', { destructive: ['alter-table-drop-column'] }),
  write('alter table t add column c int, drop column d', 'add and drop column in one alter', { destructive: ['alter-table-drop-column'] }),
  write('alter table t alter column c drop not null', 'drop not null is not drop column'),
  write('alter table t alter column c drop default', 'drop default is not drop column'),
  write('alter table t alter c drop expression', 'drop expression is not drop column'),
  write('alter table t alter column c drop identity if exists', 'drop identity is not drop column'),
  write('alter index i rename to j', 'alter index is no destructive pattern'),
  write('alter table t drop column c; drop table u', 'drop column and drop table, in order', { statements: 2, destructive: ['alter-table-drop-column', 'drop'] }),
  write('update t set a = 1', 'update without where', { destructive: ['update-without-where'] }),
  write('update t set a = 1 where id = 2 and b is null', 'update with a where clause of two conditions'),
  write('UPDATE t SET a = 1 WHERE true', 'any where clause counts, even a trivial one'),
  write('update t set a = (select max(b) from u where u.id = t.id)', 'a where inside a subquery only does not limit the update', { destructive: ['update-without-where'] }),
  write('update t set a = u.b from u', 'update ... from without where', { destructive: ['update-without-where'] }),
  write('update t set a = u.b from u where t.id = u.id', 'update ... from ... where'),
  write('update only public.t as x set a = 1', 'update only with a schema and an alias', { destructive: ['update-without-where'] }),
  write('update t x set a = 1', 'update with an alias without as', { destructive: ['update-without-where'] }),
  write("update t set a = 'where'", 'where inside a string does not count', { destructive: ['update-without-where'] }),
  write('update t set a = 1 returning *', 'update ... returning without where', { destructive: ['update-without-where'] }),
  write('update t set (a, b) = (1, 2) where id = 1', 'a multi-column set with a where'),
  write('update t set a = 1 where current of c', 'where current of a cursor'),
  write('update t set a = case when b then 1 end', 'case ... when is no where', { destructive: ['update-without-where'] }),
  write('do $$ begin update t set a = 1 where id = 1; end $$', 'an update with where inside a DO block'),
  write('update t set a = :val where id = :id', 'parameters in an update with where', {
    parameters: [{ name: 'val', occurrences: 1 }, { name: 'id', occurrences: 1 }],
  }),
  write('delete from t where id = :id', 'a parameter in a delete', { destructive: ['delete'], parameters: [{ name: 'id', occurrences: 1 }] }),
  write('with x as (select 1) delete from t where id in (select * from x)', 'a delete after a CTE', { destructive: ['delete'] }),
  write('copy (delete from t returning *) to stdout', 'a delete inside copy (...)', { destructive: ['delete'] }),
  write('do $$ begin loop drop table t; exit; end loop; end $$', 'a drop after loop inside a DO body', { destructive: ['drop'] }),
  write("do E'begin delete from t; end'", "a DO body in an E'' string", { destructive: ['delete'] }),
  write('create rule r as on update to t do also update u set x = 1', 'ambiguous: a rule action is written as code, so its update without where counts', {
    destructive: ['update-without-where'],
  }),
  write('grant update (a) on t to r', 'a column privilege update (a) is no update statement'),
  write('explain delete from t', 'ambiguous: a plain explain does not run the delete, but the pattern is there', { destructive: ['delete'] }),
]

// ---------------------------------------------------------------------------------------------
// The automatic row limit: only a single plain select with no comment, no limit or fetch-first
// clause. Offsets, subqueries, unions and row locks do not stop it; values, with and table
// statements are not plain selects.
// ---------------------------------------------------------------------------------------------
const autoLimit: CorpusEntry[] = [
  select('select * from t limit 5', 'an existing limit', { autoLimit100: null }),
  select('select * from t LIMIT ALL', 'an existing limit all', { autoLimit100: null }),
  select('select * from t order by a limit 10 offset 5', 'a limit before an offset', { autoLimit100: null }),
  select('select * from t limit (select 1)', 'a limit given by a subquery', { autoLimit100: null }),
  select('select * from t fetch first 5 rows only', 'an existing fetch first', { autoLimit100: null }),
  select('select * from t fetch first row only', 'fetch first without a count', { autoLimit100: null }),
  select('select * from t offset 10 fetch next 1 row only', 'fetch next is the same clause', { autoLimit100: null }),
  select('select * from t offset 10', 'an offset alone is no limit'),
  select('select * from t offset 5 rows', 'an offset with rows is no limit'),
  select('select * from (select * from t limit 5) s', "a subquery's limit does not bound the result"),
  select('select * from t where id in (select id from u fetch first 1 row only)', "a subquery's fetch first does not bound the result"),
  select('select 1 union all select 2', 'a union of selects is one select statement'),
  select('select a from t union select b from u order by 1', 'a union with order by'),
  select('select a from t except select b from u', 'except'),
  select('select x, y from t where z order by x desc nulls first', 'order by with nulls first'),
  select('select * from t window w as (order by a)', 'a window clause'),
  select('select * from t for share nowait', 'ambiguous: a share lock has no write keyword; the implementation still counts it a plain select and limits it', {
    autoLimit100: 'select * from t for share nowait limit 100',
  }),
  select('select 1 union (select 2 limit 1)', "a parenthesised branch's limit does not bound the union"),
  select('select * from t limit 5;', 'an existing limit before a trailing semicolon', { autoLimit100: null }),
  select('select a as fetch from t', 'an alias named fetch is no fetch clause'),
  select("select 'limit 5', \"fetch first\" from t", 'limit and fetch first inside a string and an identifier'),
  write('(select 1) union (select 2)', 'a parenthesised select does not start with select: no limit'),
  write('values (1), (2)', 'values is not a select'),
  write('table users', 'table is not a select'),
  write('with x as (select 1) select * from x', 'a with statement is not a plain select'),
  select('select count(', 'half-typed SQL with an open parenthesis gets no limit', { autoLimit100: null, invalid: true }),
  select('select 1) from t', 'a stray closing parenthesis gets no limit', { autoLimit100: null, invalid: true }),
  select('select * from t where x = 1 -- limit 1', 'a comment blocks the limit even when it mentions limit', { autoLimit100: null }),
  select('select * from t limit :n', 'a limit given by a parameter', { autoLimit100: null, parameters: [{ name: 'n', occurrences: 1 }] }),
]

// ---------------------------------------------------------------------------------------------
// Parameters (the SQL editor spec's parameters): `:name` used in code, declared by `@set name:type=value`, enums with
// pipe-separated options. Not parameters: `::casts`, array slices, text in strings, comments,
// dollar quotes and identifiers.
// ---------------------------------------------------------------------------------------------
const parameters: CorpusEntry[] = [
  select('select * from t where id = :id', 'a parameter in a where clause', { parameters: [{ name: 'id', occurrences: 1, type: undefined, defaultValue: undefined }] }),
  select('select * from t where a = :a or b = :a and c = :c', 'occurrences are counted, names in order of first use', {
    parameters: [{ name: 'a', occurrences: 2 }, { name: 'c', occurrences: 1 }],
  }),
  select(`select :id, ':id', $$ :id $$, $q$:id$q$, "col:id" from t`, 'only the parameter in code counts', { parameters: [{ name: 'id', occurrences: 1 }] }),
  select("select E'\\':x', :y", "a colon-name inside an E'' string is no parameter", { parameters: [{ name: 'y', occurrences: 1 }] }),
  select('select a::int, b::text[] from t', 'casts with :: are not parameters'),
  select('select :a::int', 'a parameter followed by a cast', { parameters: [{ name: 'a', occurrences: 1 }] }),
  select('select arr[1:2], arr[lo:hi] from t', 'array slices are not parameters'),
  select('select x from t where y = :Y_2', 'parameter names with case, underscore and digits', { parameters: [{ name: 'Y_2', occurrences: 1 }] }),
  select('select * from t where a = :a -- :b in a comment', 'a parameter in a comment does not count', {
    autoLimit100: null,
    parameters: [{ name: 'a', occurrences: 1 }],
  }),
  select('select * from t where a = :a /* :b */ and c = :a', 'a parameter in a block comment does not count', {
    autoLimit100: null,
    parameters: [{ name: 'a', occurrences: 2 }],
  }),
  select('@set id:int = 3\nselect * from t where id = :id', 'ambiguous: a set directive is no comment, but the implementation only limits SQL after substitution', {
    autoLimit100: null,
    parameters: [{ name: 'id', occurrences: 1, type: 'int', defaultValue: '3', possibleValues: undefined }],
  }),
  select('@set status:active|archived|deleted = active\nselect * from t where status = :status', 'an enum parameter (the option word deleted is ordinary)', {
    autoLimit100: null,
    parameters: [{ name: 'status', occurrences: 1, type: 'enum', defaultValue: 'active', possibleValues: ['active', 'archived', 'deleted'] }],
  }),
  select('@set s: a | b || c = b\nselect :s', 'enum options are trimmed and empty ones dropped', {
    autoLimit100: null,
    parameters: [{ name: 's', occurrences: 1, type: 'enum', defaultValue: 'b', possibleValues: ['a', 'b', 'c'] }],
  }),
  select('-- @set since:date = 2024-01-01\nselect * from t where created > :since', 'a set directive inside a line comment', {
    autoLimit100: null,
    parameters: [{ name: 'since', occurrences: 1, type: 'date', defaultValue: '2024-01-01' }],
  }),
  select("@set who = 'O''Brien'\nselect :who", 'a quoted default value without a type', {
    autoLimit100: null,
    parameters: [{ name: 'who', occurrences: 1, type: undefined, defaultValue: "O'Brien" }],
  }),
  select('@set lim:int = 10\nselect * from t limit :lim', 'a declared limit parameter', {
    autoLimit100: null,
    parameters: [{ name: 'lim', occurrences: 1, type: 'int', defaultValue: '10' }],
  }),
  select('@set unused = 1\nselect :b, :a, :b', 'declared but unused parameters are not listed', {
    autoLimit100: null,
    parameters: [{ name: 'b', occurrences: 2, defaultValue: undefined }, { name: 'a', occurrences: 1 }],
  }),
  select('@set a = 1\n@set a = 2\nselect :a', 'the last declaration of a name wins', { autoLimit100: null, parameters: [{ name: 'a', occurrences: 1, defaultValue: '2' }] }),
  select('select :a, :a, :a', 'three uses of one parameter', { parameters: [{ name: 'a', occurrences: 3 }] }),
  select('select $$:a$$ || :b', 'a dollar quote next to a parameter', { parameters: [{ name: 'b', occurrences: 1 }] }),
  select('select :x;\n@set x = 1', 'a directive after the statement still declares the parameter', {
    autoLimit100: null,
    parameters: [{ name: 'x', occurrences: 1, defaultValue: '1' }],
  }),
  select('@set x = 5; select :x', 'a bare directive ends at a semicolon', { autoLimit100: null, parameters: [{ name: 'x', occurrences: 1, defaultValue: '5' }] }),
  select("select '@set x = 1' as s", 'a set directive inside a string is no directive'),
  write('@set n:int = 5\ndelete from t where id = :n', 'a directive before a delete', { destructive: ['delete'], parameters: [{ name: 'n', occurrences: 1, type: 'int' }] }),
  write('do $$ begin perform :x; end $$', 'a colon-name inside a DO body is no parameter'),
]

export const CORPUS_GROUPS: CorpusGroup[] = [
  { name: 'plain selects', entries: plainSelects },
  { name: 'ordinary words', entries: ordinaryWords },
  { name: 'write keywords', entries: writes },
  { name: 'unknown functions', entries: unknownFunctions },
  { name: 'tricky literals', entries: literals },
  { name: 'comments', entries: comments },
  { name: 'quoted identifiers', entries: quotedIdentifiers },
  { name: 'multiple statements', entries: multipleStatements },
  { name: 'destructive patterns', entries: destructive },
  { name: 'auto limit', entries: autoLimit },
  { name: 'parameters', entries: parameters },
]

export const STATEMENT_CORPUS: Array<CorpusEntry & { group: string }> = CORPUS_GROUPS.flatMap(({ name, entries }) =>
  entries.map((entry) => ({ ...entry, group: name })),
)
