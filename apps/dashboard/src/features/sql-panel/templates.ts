/**
 * The SQL side panel's templates (the API docs and assistant spec's SQL side panel). Every template runs as is on a plain Postgres 15 or
 * 17 project (there is no `auth` schema: rows belong to the database role that wrote them, via
 * `current_user`), and running one twice does no harm: the write templates use `if not exists`,
 * `or replace` or `drop ... if exists` first. The ones built on the example table create it when
 * it is missing, so each works on its own. No imports: the end-to-end test reads this file too.
 */
export type TemplateGroup = 'Tables and security' | 'Functions and triggers' | 'Indexes' | 'Views' | 'Inspect your database'

export interface SqlTemplate {
  id: string
  group: TemplateGroup
  title: string
  description: string
  sql: string
}

export const TEMPLATE_GROUPS: readonly TemplateGroup[] = ['Tables and security', 'Functions and triggers', 'Indexes', 'Views', 'Inspect your database']

/** The example table most templates build on. */
const TODOS_TABLE = `create table if not exists public.todos (
  id bigint generated always as identity primary key,
  owner text not null default current_user,
  title text not null check (char_length(title) between 1 and 200),
  is_complete boolean not null default false,
  details jsonb not null default '{}'::jsonb,
  inserted_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);`

/** For the templates that need the example table: it is created only when missing. */
const WITH_TODOS = `-- The example table of "Create a table with RLS" (skipped when it exists).
${TODOS_TABLE}`

const ENABLE_RLS = 'alter table public.todos enable row level security;'

export const SQL_TEMPLATES: readonly SqlTemplate[] = [
  {
    id: 'table-with-rls',
    group: 'Tables and security',
    title: 'Create a table with RLS',
    description: 'A todos table with row level security enabled and a policy: each role sees and changes only its own rows.',
    sql: `-- A to-do list whose rows belong to the database role that inserted them.
${TODOS_TABLE}

-- With row level security on, every role except the table's owner sees only the rows a policy allows.
${ENABLE_RLS}

-- The API's signed-in role may use the table; the policies decide which rows.
grant select, insert, update, delete on public.todos to authenticated;

drop policy if exists "Owners manage their own todos" on public.todos;
create policy "Owners manage their own todos" on public.todos
  for all
  using (owner = current_user)
  with check (owner = current_user);
`,
  },
  {
    id: 'policy-select-authenticated',
    group: 'Tables and security',
    title: 'Policy: authenticated users can read',
    description: 'Lets the authenticated role read every row of a table with row level security.',
    sql: `${WITH_TODOS}
${ENABLE_RLS}

grant select on public.todos to authenticated;

drop policy if exists "Authenticated users can read todos" on public.todos;
create policy "Authenticated users can read todos" on public.todos
  for select
  to authenticated
  using (true);
`,
  },
  {
    id: 'policy-insert-own',
    group: 'Tables and security',
    title: 'Policy: insert only your own rows',
    description: 'A role may insert a row only when the row names it as the owner.',
    sql: `${WITH_TODOS}
${ENABLE_RLS}

drop policy if exists "Roles insert their own todos" on public.todos;
create policy "Roles insert their own todos" on public.todos
  for insert
  with check (owner = current_user);
`,
  },
  {
    id: 'policy-update-delete-own',
    group: 'Tables and security',
    title: 'Policy: update and delete your own rows',
    description: 'Two policies: a role may change or remove only the rows it owns, and may not give them away.',
    sql: `${WITH_TODOS}
${ENABLE_RLS}

drop policy if exists "Roles update their own todos" on public.todos;
create policy "Roles update their own todos" on public.todos
  for update
  using (owner = current_user)
  with check (owner = current_user);

drop policy if exists "Roles delete their own todos" on public.todos;
create policy "Roles delete their own todos" on public.todos
  for delete
  using (owner = current_user);
`,
  },
  {
    id: 'insert-rows',
    group: 'Tables and security',
    title: 'Insert example rows',
    description: 'Adds a few rows to the todos table and returns them.',
    sql: `${WITH_TODOS}

insert into public.todos (title, is_complete, details)
values
  ('Design the schema', true, '{"priority": "high", "tags": ["db"]}'),
  ('Write the policies', false, '{"priority": "high", "tags": ["security"]}'),
  ('Add indexes', false, '{"priority": "low"}')
returning *;
`,
  },
  {
    id: 'function-plpgsql',
    group: 'Functions and triggers',
    title: 'Create a function',
    description: 'A PL/pgSQL function that counts the rows of any table passed to it.',
    sql: `-- Usage: select public.row_count('public.todos');
create or replace function public.row_count(target regclass)
returns bigint
language plpgsql
stable
as $$
declare
  result bigint;
begin
  -- regclass prints as a quoted, schema-qualified name when needed: safe to format in.
  execute format('select count(*) from %s', target) into result;
  return result;
end;
$$;
`,
  },
  {
    id: 'trigger-updated-at',
    group: 'Functions and triggers',
    title: 'Trigger: keep updated_at current',
    description: 'A trigger function that stamps updated_at, and the trigger that runs it before every update.',
    sql: `${WITH_TODOS}

create or replace function public.set_updated_at()
returns trigger
language plpgsql
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create or replace trigger todos_set_updated_at
  before update on public.todos
  for each row
  execute function public.set_updated_at();
`,
  },
  {
    id: 'index-btree',
    group: 'Indexes',
    title: 'B-tree index',
    description: "Speeds up filtering by owner and sorting by newest first. Postgres's default index type.",
    sql: `${WITH_TODOS}

-- Serves: where owner = ... order by inserted_at desc
create index if not exists todos_owner_inserted_at_idx
  on public.todos (owner, inserted_at desc);
`,
  },
  {
    id: 'index-partial',
    group: 'Indexes',
    title: 'Partial index',
    description: 'Indexes only the rows a frequent query reads (open todos): smaller and faster to keep up to date.',
    sql: `${WITH_TODOS}

-- Serves: where owner = ... and not is_complete
create index if not exists todos_open_by_owner_idx
  on public.todos (owner)
  where not is_complete;
`,
  },
  {
    id: 'index-gin-jsonb',
    group: 'Indexes',
    title: 'GIN index on jsonb',
    description: 'Makes containment searches in a jsonb column fast.',
    sql: `${WITH_TODOS}

-- Serves: where details @> '{"priority": "high"}'
create index if not exists todos_details_idx
  on public.todos using gin (details jsonb_path_ops);
`,
  },
  {
    id: 'view',
    group: 'Views',
    title: 'Create a view',
    description: "A saved query you select from like a table. security_invoker keeps the table's row level security.",
    sql: `${WITH_TODOS}

create or replace view public.open_todos
with (security_invoker = true)
as
  select id, owner, title, details, inserted_at
  from public.todos
  where not is_complete;
`,
  },
  {
    id: 'materialized-view',
    group: 'Views',
    title: 'Create a materialized view',
    description: 'Stores a query result for fast reads; refresh it when the data changes.',
    sql: `${WITH_TODOS}

create materialized view if not exists public.todo_counts as
  select owner, count(*) as total, count(*) filter (where is_complete) as done
  from public.todos
  group by owner;

-- A unique index lets a refresh run concurrently, without blocking readers.
create unique index if not exists todo_counts_owner_idx on public.todo_counts (owner);

refresh materialized view concurrently public.todo_counts;
`,
  },
  {
    id: 'list-tables-sizes',
    group: 'Inspect your database',
    title: 'List tables with sizes',
    description: 'Every table with its size on disk, indexes included, largest first.',
    sql: `select
  n.nspname as table_schema,
  c.relname as table_name,
  pg_size_pretty(pg_total_relation_size(c.oid)) as total_size,
  pg_size_pretty(pg_relation_size(c.oid)) as data_size,
  pg_size_pretty(pg_indexes_size(c.oid)) as index_size,
  nullif(c.reltuples, -1)::bigint as estimated_rows
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p', 'm')
  and n.nspname not in ('pg_catalog', 'information_schema')
  and n.nspname not like 'pg_toast%'
order by pg_total_relation_size(c.oid) desc;
`,
  },
  {
    id: 'list-columns',
    group: 'Inspect your database',
    title: 'List columns of a table',
    description: 'Columns with their types, nullability and defaults. Change the schema and table name.',
    sql: `select
  column_name,
  data_type,
  is_nullable,
  column_default
from information_schema.columns
where table_schema = 'public'
  and table_name = 'todos'
order by ordinal_position;
`,
  },
  {
    id: 'table-row-counts',
    group: 'Inspect your database',
    title: 'Table row counts',
    description: 'Exact row counts of every table. Each table is counted in full: slow on very large tables.',
    sql: `select
  table_schema,
  table_name,
  (xpath(
    '/row/count/text()',
    query_to_xml(format('select count(*) from %I.%I', table_schema, table_name), false, true, '')
  ))[1]::text::bigint as row_count
from information_schema.tables
where table_type = 'BASE TABLE'
  and table_schema not in ('pg_catalog', 'information_schema')
order by row_count desc, table_schema, table_name;
`,
  },
  {
    id: 'running-queries',
    group: 'Inspect your database',
    title: 'Show running queries',
    description: 'Queries running right now, oldest first, with how long they have been running.',
    sql: `select
  pid,
  usename as role_name,
  application_name,
  state,
  now() - query_start as running_for,
  wait_event_type,
  wait_event,
  query
from pg_stat_activity
where backend_type = 'client backend'
  and state <> 'idle'
  and pid <> pg_backend_pid()
order by query_start;
`,
  },
  {
    id: 'list-policies',
    group: 'Inspect your database',
    title: 'List row level security policies',
    description: 'Every policy with its table, roles, command and conditions.',
    sql: `select
  schemaname as table_schema,
  tablename as table_name,
  policyname as policy_name,
  permissive,
  roles,
  cmd as command,
  qual as using_expression,
  with_check as check_expression
from pg_policies
order by schemaname, tablename, policyname;
`,
  },
]
