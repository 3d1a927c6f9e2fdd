import { splitSqlStatements } from '@stratum/sql/parser'
import { describe, expect, it } from 'vitest'
import { buildAlterEnum, buildCreateEnum, buildDropType } from '../src/features/database-objects/sql/enums'
import { buildDropFunction, buildSaveFunction, searchPathClause, searchPathForForm, type FunctionSpec } from '../src/features/database-objects/sql/functions'
import { checkedReturnType, checkedSqlList, dollarQuote } from '../src/features/database-objects/sql/input'
import { buildCreateTrigger, buildDropTrigger, buildSetTriggerEnabled } from '../src/features/database-objects/sql/triggers'

/** The statements Postgres's own grammar finds in the SQL (fails the test on a syntax error). */
async function statements(sql: string): Promise<string[]> {
  const split = await splitSqlStatements(sql, { postgresVersion: 17 })
  expect(split.error, sql).toBeUndefined()
  return split.statements.map((statement) => statement.text)
}

const HOSTILE = `x"; DROP TABLE users; --`

const audit: FunctionSpec = {
  schema: 'public',
  name: 'log_change',
  args: '',
  returns: 'trigger',
  language: 'plpgsql',
  body: "begin\n  insert into audit(note) values ('changed');\n  return new;\nend;",
  securityDefiner: false,
  behavior: 'VOLATILE',
  searchPath: '',
}

describe('Database functions SQL', () => {
  it('creates a function with every clause, the body dollar-quoted', async () => {
    const sql = buildSaveFunction({ ...audit, securityDefiner: true, searchPath: "''", behavior: 'STABLE' })
    expect(sql).toBe(
      [
        'CREATE FUNCTION "public"."log_change"()',
        'RETURNS trigger',
        'LANGUAGE "plpgsql"',
        'STABLE',
        'SECURITY DEFINER',
        "SET search_path = ''",
        'AS $function$',
        audit.body,
        '$function$;',
      ].join('\n'),
    )
    expect(await statements(sql)).toHaveLength(1)
  })

  it('quotes hostile names and keeps a body that holds the dollar quote inside its own', async () => {
    const body = 'select $function$ $function_1$ ; drop table t;'
    const sql = buildSaveFunction({ ...audit, schema: HOSTILE, name: HOSTILE, returns: 'text', language: 'sql', body })
    expect(dollarQuote(body)).toBe('$function_2$')
    expect(sql).toContain('"x""; DROP TABLE users; --"."x""; DROP TABLE users; --"()')
    expect(await statements(sql)).toHaveLength(1)
  })

  it('refuses a security definer function without a search_path, and argument or type text that leaves its clause', () => {
    expect(() => buildSaveFunction({ ...audit, securityDefiner: true })).toThrow(/needs a search_path/)
    expect(() => buildSaveFunction({ ...audit, args: 'a int) returns int as $$ select 1 $$; --' })).toThrow()
    expect(() => buildSaveFunction({ ...audit, args: 'a int, b text; drop table t' })).toThrow(/single expression/)
    expect(() => buildSaveFunction({ ...audit, returns: 'void language sql as' })).toThrow(/Unsupported return type/)
    expect(() => buildSaveFunction({ ...audit, name: '' })).toThrow(/Name is required/)
    expect(() => buildSaveFunction({ ...audit, body: '  ' })).toThrow(/Definition is required/)
    expect(() => checkedSqlList('a int /* x */', 'Arguments')).toThrow(/comment/)
  })

  it('accepts the return types Postgres prints', () => {
    for (const type of ['void', 'SETOF text', 'timestamp with time zone', 'numeric(10,2)', 'text[]', 'public.mood', '"My Schema"."My Type"[]', 'double precision', 'TABLE(id bigint, name text)']) {
      expect(checkedReturnType(type)).toBe(type)
    }
  })

  it('replaces a function in place when its signature stays, else drops and creates it in one request', async () => {
    const existing = { schema: 'public', name: 'add', argument_types: 'a integer, b integer', identity_argument_types: 'a integer, b integer', return_type: 'integer' }
    const spec = { ...audit, name: 'add', args: 'a integer,  b integer', returns: 'integer', language: 'sql', body: 'select a + b' }
    const same = buildSaveFunction(spec, existing)
    expect(same.startsWith('CREATE OR REPLACE FUNCTION "public"."add"(a integer,  b integer)')).toBe(true)
    expect(await statements(same)).toHaveLength(1)
    const renamed = buildSaveFunction({ ...spec, name: 'sum', returns: 'bigint' }, existing)
    expect(renamed.startsWith('DROP FUNCTION "public"."add"(a integer, b integer);\nCREATE FUNCTION "public"."sum"')).toBe(true)
    expect(await statements(renamed)).toHaveLength(2)
  })

  it('writes search_path entries as quoted schema names', () => {
    expect(searchPathClause('')).toBe('')
    expect(searchPathClause("''")).toBe("SET search_path = ''")
    expect(searchPathClause('public, extensions')).toBe('SET search_path = "public", "extensions"')
    expect(searchPathClause('"my ""odd"", schema", pg_temp')).toBe('SET search_path = "my ""odd"", schema", "pg_temp"')
    expect(() => searchPathClause("public; drop table t")).toThrow(/schema name/)
    expect(searchPathForForm({ search_path: '""' })).toBe("''")
    expect(searchPathForForm(null)).toBe('')
  })

  it('drops a function by its identity arguments', async () => {
    const sql = buildDropFunction({ schema: 'public', name: HOSTILE, identity_argument_types: 'a integer, "b c" text' }, true)
    expect(sql).toBe('DROP FUNCTION "public"."x""; DROP TABLE users; --"(a integer, "b c" text) CASCADE;')
    expect(await statements(sql)).toHaveLength(1)
  })
})

describe('Database triggers SQL', () => {
  const spec = { name: HOSTILE, table: { schema: 'public', name: 'notes' }, function: { schema: 'public', name: 'log_change' }, timing: 'AFTER', orientation: 'ROW' } as const

  it('creates a trigger with its events in a fixed order', async () => {
    const sql = buildCreateTrigger({ ...spec, events: ['UPDATE', 'INSERT'] })
    expect(sql).toBe(
      'CREATE TRIGGER "x""; DROP TABLE users; --"\nAFTER INSERT OR UPDATE ON "public"."notes"\nFOR EACH ROW\nEXECUTE FUNCTION "public"."log_change"();',
    )
    expect(await statements(sql)).toHaveLength(1)
  })

  it('refuses no event, and TRUNCATE for each row', () => {
    expect(() => buildCreateTrigger({ ...spec, events: [] })).toThrow(/at least one event/)
    expect(() => buildCreateTrigger({ ...spec, events: ['TRUNCATE'] })).toThrow(/Statement/)
    expect(buildCreateTrigger({ ...spec, orientation: 'STATEMENT', events: ['TRUNCATE'] })).toContain('AFTER TRUNCATE ON')
  })

  it('enables, disables and drops a trigger by name on its table', async () => {
    const trigger = { name: 'audit', schema: 'public', table: 'my "notes"' }
    expect(buildSetTriggerEnabled(trigger, false)).toBe('ALTER TABLE "public"."my ""notes""" DISABLE TRIGGER "audit";')
    expect(buildSetTriggerEnabled(trigger, true)).toBe('ALTER TABLE "public"."my ""notes""" ENABLE TRIGGER "audit";')
    expect(buildDropTrigger(trigger)).toBe('DROP TRIGGER "audit" ON "public"."my ""notes""";')
    expect(await statements(buildDropTrigger(trigger))).toHaveLength(1)
  })
})

describe('Database enumerated types SQL', () => {
  it('creates an enum with its values as literals', async () => {
    const sql = buildCreateEnum({ schema: 'public', name: 'mood' }, ['sad', "it's ok", 'back\\slash'])
    expect(sql).toBe(`CREATE TYPE "public"."mood" AS ENUM ('sad', 'it''s ok', E'back\\\\slash');`)
    expect(await statements(sql)).toHaveLength(1)
  })

  it('renames values, then adds new ones at the end', async () => {
    const sql = buildAlterEnum({ schema: 'public', name: 'mood' }, { renamed: [{ from: 'sad', to: 'blue' }, { from: 'ok', to: 'ok' }], added: ["'); drop type x; --"] })
    expect(sql).toBe(`ALTER TYPE "public"."mood" RENAME VALUE 'sad' TO 'blue';\nALTER TYPE "public"."mood" ADD VALUE '''); drop type x; --';`)
    expect(await statements(sql)).toHaveLength(2)
    expect(buildAlterEnum({ schema: 'public', name: 'mood' }, { renamed: [{ from: 'a', to: 'a' }], added: [] })).toBe('')
  })

  it('refuses no value, an empty value and a value listed twice', () => {
    expect(() => buildCreateEnum({ schema: 'public', name: 'mood' }, [])).toThrow(/at least one value/)
    expect(() => buildCreateEnum({ schema: 'public', name: 'mood' }, ['a', ''])).toThrow(/cannot be empty/)
    expect(() => buildAlterEnum({ schema: 'public', name: 'mood' }, { renamed: [{ from: 'a', to: 'b' }], added: ['b'] })).toThrow(/listed twice/)
  })

  it('drops a type', () => {
    expect(buildDropType({ schema: 'public', name: 'mood' }, true)).toBe('DROP TYPE "public"."mood" CASCADE;')
  })
})
