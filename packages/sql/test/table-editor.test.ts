import { describe, expect, it } from 'vitest'
import {
  buildAddColumn,
  buildAlterColumn,
  buildCappedCount,
  buildCreatePolicy,
  buildCreateTable,
  buildDeleteRows,
  buildDropColumn,
  buildDropPolicy,
  buildDropTable,
  buildInsertRow,
  buildPageQuery,
  buildSetRowLevelSecurity,
  buildUpdateRow,
  checkedType,
  entitiesQuery,
  filterCondition,
  parseInList,
  relationQuery,
  splitStatementsByLexer,
  TableEditorInputError,
  type ColumnSpec,
  type PageRequest,
} from '../src/index.js'

const people = { schema: 'public', name: 'people' }
const hostile = `x"; drop table people; --`
const base: PageRequest = { relation: people, columns: ['id', 'name'], primaryKey: ['id'], hasCtid: true, filters: [], cursor: { kind: 'first' } }

/** The statements the lexer finds: an injected statement would show up as a second one. */
const statementCount = (sql: string) => splitStatementsByLexer(sql).filter((statement) => statement.text.trim()).length

describe('page queries', () => {
  it('reads the first page by key, every column as text, ordered by the table column (not the text alias)', () => {
    expect(buildPageQuery(base)).toEqual({
      sql: 'SELECT "id"::text AS "id", "name"::text AS "name" FROM "public"."people" ORDER BY "public"."people"."id" ASC LIMIT 100',
      reversed: false,
      keyset: true,
      canReadFromEnd: true,
    })
  })

  it('pages by key after and before a key, and reads the last page from the end', () => {
    expect(buildPageQuery({ ...base, cursor: { kind: 'after', key: ['42'] } }).sql).toContain('WHERE "id" > \'42\' ORDER BY "public"."people"."id" ASC LIMIT 100')
    const before = buildPageQuery({ ...base, cursor: { kind: 'before', key: ['42'] } })
    expect(before.sql).toContain('WHERE "id" < \'42\' ORDER BY "public"."people"."id" DESC LIMIT 100')
    expect(before.reversed).toBe(true)
    const last = buildPageQuery({ ...base, cursor: { kind: 'last' } })
    expect(last.sql).toContain('ORDER BY "public"."people"."id" DESC LIMIT 100')
    expect(last.reversed).toBe(true)
  })

  it('keeps keyset paging for a descending sort on the key, with the comparison turned round', () => {
    const query = buildPageQuery({ ...base, sort: { column: 'id', ascending: false }, cursor: { kind: 'after', key: ['7'] } })
    expect(query.keyset).toBe(true)
    expect(query.sql).toContain('WHERE "id" < \'7\' ORDER BY "public"."people"."id" DESC')
  })

  it('compares composite keys as rows', () => {
    const query = buildPageQuery({ ...base, primaryKey: ['a', 'b'], cursor: { kind: 'after', key: ['1', 'x'] } })
    expect(query.sql).toContain(`WHERE ("a", "b") > ('1', 'x') ORDER BY "public"."people"."a" ASC, "public"."people"."b" ASC`)
  })

  it('pages by offset for a sort on another column, with the key as tie-breaker, and reads from the end', () => {
    const sorted = { ...base, sort: { column: 'name', ascending: false } }
    expect(buildPageQuery({ ...sorted, cursor: { kind: 'offset', offset: 200 } }).sql).toContain('ORDER BY "public"."people"."name" DESC, "public"."people"."id" ASC LIMIT 100 OFFSET 200')
    const end = buildPageQuery({ ...sorted, cursor: { kind: 'fromEnd', offset: 100 } })
    expect(end.sql).toContain('ORDER BY "public"."people"."name" ASC, "public"."people"."id" DESC LIMIT 100 OFFSET 100')
    expect(end.reversed).toBe(true)
  })

  it('orders a table without a key by ctid, and refuses to read a view without key from the end', () => {
    expect(buildPageQuery({ ...base, primaryKey: [], cursor: { kind: 'last' } }).sql).toContain('ORDER BY ctid DESC')
    const view = { ...base, primaryKey: [], hasCtid: false }
    expect(buildPageQuery(view).canReadFromEnd).toBe(false)
    expect(() => buildPageQuery({ ...view, cursor: { kind: 'last' } })).toThrow(TableEditorInputError)
  })

  it('quotes hostile names and key values', () => {
    const query = buildPageQuery({ ...base, relation: { schema: hostile, name: hostile }, columns: [hostile], primaryKey: [hostile], cursor: { kind: 'after', key: [`1'; drop table people; --`] } })
    expect(query.sql).toContain(`"x""; drop table people; --"."x""; drop table people; --"`)
    expect(query.sql).toContain(`'1''; drop table people; --'`)
    expect(statementCount(query.sql)).toBe(1)
  })

  it('counts up to the cap with the filters', () => {
    expect(buildCappedCount(people, [{ column: 'name', operator: '=', value: 'a' }], 10)).toBe(
      `SELECT count(*)::int AS count FROM (SELECT 1 FROM "public"."people" WHERE "name" = 'a' LIMIT 11) AS capped`,
    )
  })
})

describe('filters', () => {
  it('builds each of the ten operators', () => {
    const c = (operator: Parameters<typeof filterCondition>[0]['operator'], value: string) => filterCondition({ column: 'n', operator, value })
    expect(c('=', '1')).toBe(`"n" = '1'`)
    expect(c('<>', '1')).toBe(`"n" <> '1'`)
    expect(c('>', '1')).toBe(`"n" > '1'`)
    expect(c('<', '1')).toBe(`"n" < '1'`)
    expect(c('>=', '1')).toBe(`"n" >= '1'`)
    expect(c('<=', '1')).toBe(`"n" <= '1'`)
    expect(c('~~', 'a%')).toBe(`"n"::text ~~ 'a%'`)
    expect(c('~~*', 'A%')).toBe(`"n"::text ~~* 'A%'`)
    expect(c('in', 'a, b ,"c,d"')).toBe(`"n" IN ('a', 'b', 'c,d')`)
    expect(c('is', 'NOT  null')).toBe(`"n" IS NOT NULL`)
  })

  it('refuses an is value it does not know and an empty in list', () => {
    expect(() => filterCondition({ column: 'n', operator: 'is', value: 'null; drop table x' })).toThrow(TableEditorInputError)
    expect(() => filterCondition({ column: 'n', operator: 'in', value: '  ' })).toThrow(TableEditorInputError)
  })

  it('keeps hostile values and backslashes inside literals', () => {
    const sql = filterCondition({ column: hostile, operator: '=', value: `'); delete from people; -- \\` })
    expect(sql).toBe(`"x""; drop table people; --" = E'''); delete from people; -- \\\\'`)
    expect(statementCount(`SELECT 1 WHERE ${sql}`)).toBe(1)
    expect(statementCount(`SELECT 1 WHERE ${filterCondition({ column: 'n', operator: 'in', value: `a'),('b` })}`)).toBe(1)
  })

  it('splits in lists with quotes', () => {
    expect(parseInList('1,2, 3')).toEqual(['1', '2', '3'])
    expect(parseInList('"a ""b""", c')).toEqual(['a "b"', 'c'])
    expect(parseInList('')).toEqual([])
  })
})

describe('row writes', () => {
  it('inserts values, nulls and defaults', () => {
    expect(buildInsertRow(people, { id: { kind: 'default' }, name: { kind: 'value', text: "O'Brien" }, note: { kind: 'null' } })).toBe(
      `INSERT INTO "public"."people" ("name", "note") VALUES ('O''Brien', NULL)`,
    )
    expect(buildInsertRow(people, { id: { kind: 'default' } })).toBe('INSERT INTO "public"."people" DEFAULT VALUES')
  })

  it('updates and deletes by primary key only', () => {
    const key = { columns: ['id'], values: ['5'] }
    expect(buildUpdateRow(people, key, { name: { kind: 'value', text: 'b' } })).toBe(`UPDATE "public"."people" SET "name" = 'b' WHERE "id" = '5'`)
    expect(buildDeleteRows(people, [key, { columns: ['id'], values: ['6'] }])).toBe(`DELETE FROM "public"."people" WHERE ("id" = '5') OR ("id" = '6')`)
    expect(() => buildUpdateRow(people, { columns: [], values: [] }, { name: { kind: 'null' } })).toThrow(TableEditorInputError)
    expect(() => buildDeleteRows(people, [{ columns: ['id'], values: [null] }])).toThrow(TableEditorInputError)
    expect(() => buildDeleteRows(people, [])).toThrow(TableEditorInputError)
  })

  it('survives hostile column names and values', () => {
    const sql = buildUpdateRow(people, { columns: [hostile], values: [`1' or '1'='1`] }, { [hostile]: { kind: 'value', text: `x'; drop table people; --` } })
    expect(sql).toBe(`UPDATE "public"."people" SET "x""; drop table people; --" = 'x''; drop table people; --' WHERE "x""; drop table people; --" = '1'' or ''1''=''1'`)
    expect(statementCount(sql)).toBe(1)
  })
})

const column = (overrides: Partial<ColumnSpec>): ColumnSpec => ({
  name: 'c',
  type: 'text',
  default: { kind: 'none' },
  nullable: true,
  unique: false,
  primaryKey: false,
  identity: 'none',
  ...overrides,
})

describe('table DDL', () => {
  it('creates a table with identity key, defaults, not null, unique and a foreign key with its actions', () => {
    const sql = buildCreateTable({
      schema: 'public',
      name: 'orders',
      enableRls: true,
      columns: [
        column({ name: 'id', type: 'int8', primaryKey: true, nullable: false, identity: 'by default' }),
        column({ name: 'created_at', type: 'timestamp with time zone', default: { kind: 'expression', expression: 'now()' }, nullable: false }),
        column({ name: 'code', type: 'varchar(20)', unique: true, default: { kind: 'value', text: "it's" } }),
        column({ name: 'person', type: 'int8', foreignKey: { schema: 'public', table: 'people', column: 'id', onDelete: 'CASCADE', onUpdate: 'NO ACTION' } }),
      ],
    })
    expect(sql).toBe(
      [
        'CREATE TABLE "public"."orders" (',
        '  "id" int8 GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,',
        '  "created_at" timestamp with time zone DEFAULT now() NOT NULL,',
        `  "code" varchar(20) DEFAULT 'it''s' UNIQUE,`,
        '  "person" int8 REFERENCES "public"."people" ("id") ON DELETE CASCADE ON UPDATE NO ACTION',
        ');',
        'ALTER TABLE "public"."orders" ENABLE ROW LEVEL SECURITY;',
      ].join('\n'),
    )
  })

  it('writes a composite primary key as a table constraint', () => {
    const sql = buildCreateTable({ schema: 's', name: 't', enableRls: false, columns: [column({ name: 'a', primaryKey: true }), column({ name: 'b', primaryKey: true })] })
    expect(sql).toContain('PRIMARY KEY ("a", "b")')
  })

  it('refuses types, default expressions and actions it cannot vouch for', () => {
    expect(() => checkedType('text); drop table people; --')).toThrow(TableEditorInputError)
    expect(() => checkedType('int4 default now')).toThrow(TableEditorInputError)
    expect(checkedType('double precision[]')).toBe('double precision[]')
    expect(checkedType('timestamp(3) with time zone')).toBe('timestamp(3) with time zone')
    expect(() => checkedType('text"')).toThrow(TableEditorInputError)
    expect(checkedType('"public"."mood"[]')).toBe('"public"."mood"[]')
    expect(checkedType('numeric(10, 2)')).toBe('numeric(10, 2)')
    expect(() => buildAddColumn(people, column({ default: { kind: 'expression', expression: 'pg_sleep(10)' } }))).toThrow(TableEditorInputError)
    const bad = column({ foreignKey: { schema: 'public', table: 'people', column: 'id', onDelete: 'CASCADE; drop table x' as 'CASCADE', onUpdate: 'NO ACTION' } })
    expect(() => buildAddColumn(people, bad)).toThrow(TableEditorInputError)
    expect(() => buildCreateTable({ schema: 's', name: 't', enableRls: false, columns: [column({}), column({})] })).toThrow('appears twice')
  })

  it('quotes hostile table and column names', () => {
    const sql = buildCreateTable({ schema: 'public', name: hostile, enableRls: false, columns: [column({ name: hostile, default: { kind: 'value', text: `'); drop table x; --` } })] })
    expect(statementCount(sql)).toBe(1)
    expect(buildDropColumn(people, hostile, false)).toBe('ALTER TABLE "public"."people" DROP COLUMN "x""; drop table people; --";')
  })

  it('alters a column in a working order: type, default, nullability, uniqueness, rename last', () => {
    expect(
      buildAlterColumn(people, 'age', { name: 'years', type: 'int8', default: { kind: 'value', text: '0' }, nullable: false, unique: false }, 'people_age_key'),
    ).toEqual([
      'ALTER TABLE "public"."people" ALTER COLUMN "age" TYPE int8 USING "age"::int8;',
      `ALTER TABLE "public"."people" ALTER COLUMN "age" SET DEFAULT '0';`,
      'ALTER TABLE "public"."people" ALTER COLUMN "age" SET NOT NULL;',
      'ALTER TABLE "public"."people" DROP CONSTRAINT "people_age_key";',
      'ALTER TABLE "public"."people" RENAME COLUMN "age" TO "years";',
    ])
    expect(buildAlterColumn(people, 'age', { default: { kind: 'none' }, nullable: true })).toEqual([
      'ALTER TABLE "public"."people" ALTER COLUMN "age" DROP DEFAULT;',
      'ALTER TABLE "public"."people" ALTER COLUMN "age" DROP NOT NULL;',
    ])
  })

  it('drops tables, toggles row level security', () => {
    expect(buildDropTable(people, true)).toBe('DROP TABLE "public"."people" CASCADE;')
    expect(buildSetRowLevelSecurity(people, true)).toBe('ALTER TABLE "public"."people" ENABLE ROW LEVEL SECURITY;')
    expect(buildSetRowLevelSecurity(people, false)).toBe('ALTER TABLE "public"."people" DISABLE ROW LEVEL SECURITY;')
  })
})

describe('policies', () => {
  it('creates a policy with roles and expressions, PUBLIC as a keyword', () => {
    expect(buildCreatePolicy(people, { name: 'Own rows', command: 'UPDATE', permissive: true, roles: ['authenticated'], using: 'auth.uid() = owner', withCheck: 'true' })).toBe(
      ['CREATE POLICY "Own rows" ON "public"."people"', '  AS PERMISSIVE', '  FOR UPDATE', '  TO "authenticated"', '  USING (auth.uid() = owner)', '  WITH CHECK (true);'].join('\n'),
    )
    expect(buildCreatePolicy(people, { name: 'p', command: 'SELECT', permissive: false, roles: ['public'], using: 'true' })).toContain('TO PUBLIC')
    expect(buildDropPolicy(people, hostile)).toBe('DROP POLICY "x""; drop table people; --" ON "public"."people";')
  })

  it('keeps an expression one expression', () => {
    const policy = (using: string) => () => buildCreatePolicy(people, { name: 'p', command: 'SELECT', permissive: true, roles: [], using })
    expect(policy('true); drop table people; --')).toThrow(TableEditorInputError)
    expect(policy('true) or (true')).toThrow(TableEditorInputError)
    expect(policy('true)) --')).toThrow(TableEditorInputError)
    expect(policy('true -- )')).toThrow(TableEditorInputError)
    expect(policy("name = 'x")).toThrow(TableEditorInputError)
    expect(policy("name = ');'")).not.toThrow()
    expect(() => buildCreatePolicy(people, { name: 'p', command: 'INSERT', permissive: true, roles: [], using: 'true' })).toThrow(TableEditorInputError)
  })
})

describe('catalog queries', () => {
  it('quote the schema and accept only a numeric relation id', () => {
    expect(entitiesQuery(`x' or '1'='1`)).toContain(`n.nspname = 'x'' or ''1''=''1'`)
    expect(() => relationQuery(Number.NaN)).toThrow()
    expect(relationQuery(16384)).toContain('WHERE c.oid = 16384')
  })
})

describe('array literals', () => {
  it('reads one-dimensional arrays with quotes, escapes and NULL', async () => {
    const { parseArrayLiteral, formatArrayLiteral } = await import('../src/index.js')
    expect(parseArrayLiteral('{a,"b c",NULL,"x\\"y","NULL"}')).toEqual(['a', 'b c', null, 'x"y', 'NULL'])
    expect(parseArrayLiteral('{}')).toEqual([])
    expect(parseArrayLiteral('{{1,2},{3,4}}')).toBeUndefined()
    expect(parseArrayLiteral('not an array')).toBeUndefined()
    expect(formatArrayLiteral(['a', null, 'say "hi"', 'back\\slash', '},{'])).toBe('{"a",NULL,"say \\"hi\\"","back\\\\slash","},{"}')
    const items = ['1', 'two, three', '"', '\\', null]
    expect(parseArrayLiteral(formatArrayLiteral(items))).toEqual(items)
  })
})
