import { splitStatementsByLexer, tokenize } from '@stratum/sql'
import { describe, expect, test } from 'vitest'
import { diffSchemas, emptySnapshot, schemaScript, type CatalogSnapshot } from '../../src/control/branching/schema-diff/index.js'
import type { ColumnDef, DependencyDef, FunctionDef, ObjectRef, PolicyDef, TableDef, ViewDef } from '../../src/control/branching/schema-diff/snapshot.js'

/** Branch diff by schema comparison: the comparer on catalog snapshots (what read-snapshot.ts reads from Postgres). */

const snapshot = (parts: Partial<CatalogSnapshot> = {}): CatalogSnapshot => ({ ...emptySnapshot(), schemas: [{ name: 'public' }], ...parts })
const table = (name: string, more: Partial<TableDef> = {}): TableDef => ({
  schema: 'public', name, kind: 'r', persistence: 'p', rls: false, forceRls: false, partitionKey: null, partitionOf: null, partitionBound: null, ...more,
})
const column = (tableName: string, name: string, position: number, type: string, more: Partial<ColumnDef> = {}): ColumnDef => ({
  schema: 'public', table: tableName, name, position, type, notNull: false, default: null, generated: null, identity: '', collation: null, ...more,
})
const policy = (tableName: string, name: string, more: Partial<PolicyDef> = {}): PolicyDef => ({
  schema: 'public', table: tableName, name, permissive: true, command: 'r', roles: ['authenticated'], using: 'true', check: null, ...more,
})

/** The branch against a parent that is still its base (nothing changed there). */
const branchOnly = (base: CatalogSnapshot, branch: CatalogSnapshot) => diffSchemas({ base, parentBefore: base, branch })

const items = snapshot({
  tables: [table('items')],
  columns: [column('items', 'id', 1, 'bigint', { notNull: true }), column('items', 'size', 2, 'integer')],
  constraints: [{ schema: 'public', table: 'items', name: 'items_pkey', type: 'p', definition: 'PRIMARY KEY (id)' }],
})

describe('branch schema diff', () => {
  test('writes a new table whole, then its keys, index, row security, policy and grants, in that order', () => {
    const branch = snapshot({
      ...items,
      sequences: [{ schema: 'public', name: 'tags_id_seq', type: 'bigint', start: '1', increment: '1', min: '1', max: '9223372036854775807', cache: '1', cycle: false, ownedBy: { schema: 'public', table: 'tags', column: 'id' } }],
      tables: [...items.tables, table('tags', { rls: true })],
      columns: [
        ...items.columns,
        column('tags', 'label', 2, 'text', { notNull: true }),
        column('tags', 'id', 1, 'bigint', { notNull: true, default: "nextval('public.tags_id_seq'::regclass)" }),
        column('tags', 'item_id', 3, 'bigint'),
      ],
      constraints: [
        ...items.constraints,
        { schema: 'public', table: 'tags', name: 'tags_item_fk', type: 'f', definition: 'FOREIGN KEY (item_id) REFERENCES public.items(id)' },
        { schema: 'public', table: 'tags', name: 'tags_pkey', type: 'p', definition: 'PRIMARY KEY (id)' },
      ],
      indexes: [{ schema: 'public', table: 'tags', name: 'tags_label_idx', definition: 'CREATE INDEX tags_label_idx ON public.tags USING btree (label)', onView: false }],
      policies: [policy('tags', 'tags are readable')],
      grants: [{ schema: 'public', table: 'tags', kind: 'r', grantee: 'anon', privileges: ['SELECT', 'UPDATE*'] }],
    })
    const diff = branchOnly(items, branch)
    expect(diff.conflicts).toEqual([])
    expect(diff.unsupported).toEqual([])
    expect(diff.statements).toEqual([
      'CREATE SEQUENCE public.tags_id_seq AS bigint INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1 NO CYCLE',
      "CREATE TABLE public.tags (\n  id bigint DEFAULT nextval('public.tags_id_seq'::regclass) NOT NULL,\n  label text NOT NULL,\n  item_id bigint\n)",
      'ALTER SEQUENCE public.tags_id_seq OWNED BY public.tags.id',
      'ALTER TABLE public.tags ADD CONSTRAINT tags_pkey PRIMARY KEY (id)',
      'ALTER TABLE public.tags ADD CONSTRAINT tags_item_fk FOREIGN KEY (item_id) REFERENCES public.items(id)',
      'CREATE INDEX tags_label_idx ON public.tags USING btree (label)',
      'ALTER TABLE public.tags ENABLE ROW LEVEL SECURITY',
      'CREATE POLICY "tags are readable" ON public.tags\n  AS PERMISSIVE FOR SELECT TO authenticated\n  USING (true)',
      'GRANT SELECT ON TABLE public.tags TO anon',
      'GRANT UPDATE ON TABLE public.tags TO anon WITH GRANT OPTION',
    ])
  })

  test("compares a new table's grants with the parent's default privileges: only the difference is written", () => {
    const all = ['DELETE', 'INSERT', 'REFERENCES', 'SELECT', 'TRIGGER', 'TRUNCATE', 'UPDATE']
    const defaultPrivileges = ['anon', 'authenticated'].map((grantee) => ({ role: 'postgres', schema: 'public', kind: 'r', grantee, privileges: all }))
    const base = snapshot({ ...items, defaultPrivileges })
    const branch = snapshot({
      ...base,
      tables: [...items.tables, table('secrets'), table('open')],
      grants: [
        // secrets: closed to anon (revoked after creation), authenticated may only read.
        { schema: 'public', table: 'secrets', kind: 'r', grantee: 'authenticated', privileges: ['SELECT'] },
        // open: exactly what the defaults give, and one more grantee.
        { schema: 'public', table: 'open', kind: 'r', grantee: 'anon', privileges: all },
        { schema: 'public', table: 'open', kind: 'r', grantee: 'authenticated', privileges: all },
        { schema: 'public', table: 'open', kind: 'r', grantee: 'reporting', privileges: ['SELECT'] },
      ],
    })
    const grants = branchOnly(base, branch).statements.filter((statement) => /^(GRANT|REVOKE)/.test(statement))
    expect(grants.sort()).toEqual([
      'GRANT SELECT ON TABLE public.open TO reporting',
      'GRANT SELECT ON TABLE public.secrets TO authenticated',
      'REVOKE ALL ON TABLE public.secrets FROM anon',
      'REVOKE ALL ON TABLE public.secrets FROM authenticated',
    ])
  })

  test('quotes hostile names so that each statement stays one statement naming exactly them', () => {
    const evil = 'x"; drop table y; --'
    const branch = snapshot({
      schemas: [{ name: 'public' }, { name: 'Weird Schema' }],
      enums: [{ schema: 'Weird Schema', name: "mood'); drop", values: ["it's", 'a"b', 'back\\slash'] }],
      tables: [table(evil, { schema: 'Weird Schema' })],
      columns: [column(evil, 'select', 1, 'text', { schema: 'Weird Schema' }), column(evil, 'Mixed Case', 2, 'integer', { schema: 'Weird Schema' })],
      policies: [policy(evil, "p'; --", { schema: 'Weird Schema', roles: [null, 'role"x'] })],
      grants: [{ schema: 'Weird Schema', table: evil, kind: 'r', grantee: 'grantee; drop', privileges: ['SELECT'] }],
      publications: [{ name: 'pub"1', allTables: false, insert: true, update: false, delete: false, truncate: false }],
      publicationTables: [{ publication: 'pub"1', schema: 'Weird Schema', table: evil }],
    })
    const diff = branchOnly(snapshot(), branch)
    const script = schemaScript(diff.statements)
    expect(splitStatementsByLexer(script)).toHaveLength(diff.statements.length)
    expect(diff.statements).toContain('CREATE SCHEMA "Weird Schema"')
    expect(diff.statements).toContain(`CREATE TYPE "Weird Schema"."mood'); drop" AS ENUM ('it''s', 'a"b', E'back\\\\slash')`)
    expect(diff.statements).toContain('CREATE TABLE "Weird Schema"."x""; drop table y; --" (\n  "select" text,\n  "Mixed Case" integer\n)')
    expect(diff.statements).toContain('GRANT SELECT ON TABLE "Weird Schema"."x""; drop table y; --" TO "grantee; drop"')
    expect(diff.statements).toContain('ALTER PUBLICATION "pub""1" ADD TABLE "Weird Schema"."x""; drop table y; --"')
    const createPolicy = diff.statements.find((statement) => statement.startsWith('CREATE POLICY'))!
    expect(createPolicy).toContain(`CREATE POLICY "p'; --" ON "Weird Schema"."x""; drop table y; --"`)
    expect(createPolicy).toContain('TO PUBLIC, "role""x"')
    // The lexer reads the hostile table name back as one quoted identifier.
    const names = tokenize(diff.statements.find((statement) => statement.startsWith('CREATE TABLE'))!).filter((token) => token.text.startsWith('"'))
    expect(names.map((token) => token.text)).toEqual(['"Weird Schema"', '"x""; drop table y; --"', '"select"', '"Mixed Case"'])
  })

  test('keeps what only the parent changed, and drops what only the branch dropped', () => {
    const base = items
    const parent = snapshot({ ...items, tables: [...items.tables, table('audit')], columns: [...items.columns, column('audit', 'at', 1, 'timestamp with time zone')] })
    const branch = snapshot({ ...items, columns: items.columns.filter((c) => c.name !== 'size') })
    const diff = diffSchemas({ base, parentBefore: parent, branch })
    expect(diff.conflicts).toEqual([])
    expect(diff.statements).toEqual(['ALTER TABLE public.items DROP COLUMN size'])
  })

  test('reports an object both sides changed differently as a conflict, and merges the rest', () => {
    const parent = snapshot({ ...items, columns: items.columns.map((c) => (c.name === 'size' ? { ...c, type: 'bigint' } : c)) })
    const branch = snapshot({
      ...items,
      columns: [...items.columns.map((c) => (c.name === 'size' ? { ...c, type: 'text' } : c)), column('items', 'color', 3, 'text')],
    })
    const diff = diffSchemas({ base: items, parentBefore: parent, branch })
    expect(diff.conflicts).toEqual(['column public.items.size'])
    expect(diff.statements).toEqual(['ALTER TABLE public.items ADD COLUMN color text'])
    // The same change on both sides, or different columns of one table, are no conflict.
    const same = diffSchemas({ base: items, parentBefore: parent, branch: parent })
    expect(same).toEqual({ statements: [], conflicts: [], unsupported: [], notCompared: [] })
  })

  test('writes nothing twice: what the pending migrations made on the parent is left out', () => {
    const branch = snapshot({ ...items, tables: [...items.tables, table('tags')], columns: [...items.columns, column('tags', 'id', 1, 'integer')] })
    const afterMigrations = snapshot({ ...branch })
    const withSqlEditorChange = snapshot({ ...branch, indexes: [{ schema: 'public', table: 'tags', name: 'tags_id_idx', definition: 'CREATE INDEX tags_id_idx ON public.tags USING btree (id)', onView: false }] })
    expect(diffSchemas({ base: items, parentBefore: items, parentNow: afterMigrations, branch }).statements).toEqual([])
    expect(diffSchemas({ base: items, parentBefore: items, parentNow: afterMigrations, branch: withSqlEditorChange }).statements).toEqual([
      'CREATE INDEX tags_id_idx ON public.tags USING btree (id)',
    ])
  })

  test('without a recorded base, never drops what only the parent has and tells no conflict', () => {
    const parent = snapshot({ ...items, tables: [...items.tables, table('audit')] })
    const branch = snapshot({ ...items, tables: [...items.tables, table('tags')] })
    const diff = diffSchemas({ base: null, parentBefore: parent, branch })
    expect(diff.statements).toEqual(['CREATE TABLE public.tags ()'])
  })

  test('changes a column in place: default dropped around a new type, identity, not null', () => {
    const parent = snapshot({ ...items, columns: [...items.columns, column('items', 'code', 3, 'integer', { default: '0' })] })
    const branch = snapshot({ ...items, columns: [...items.columns, column('items', 'code', 3, 'text', { default: "'none'::text", notNull: true })] })
    expect(branchOnly(parent, branch).statements).toEqual([
      'ALTER TABLE public.items ALTER COLUMN code DROP DEFAULT',
      'ALTER TABLE public.items ALTER COLUMN code TYPE text USING code::text',
      'ALTER TABLE public.items ALTER COLUMN code SET NOT NULL',
      "ALTER TABLE public.items ALTER COLUMN code SET DEFAULT 'none'::text",
    ])
  })

  test('adds enum values in place, renames one, and refuses to remove one', () => {
    const base = snapshot({ enums: [{ schema: 'public', name: 'mood', values: ['sad', 'ok'] }] })
    const added = snapshot({ enums: [{ schema: 'public', name: 'mood', values: ['awful', 'sad', 'meh', 'ok', 'happy'] }] })
    expect(branchOnly(base, added).statements).toEqual([
      "ALTER TYPE public.mood ADD VALUE IF NOT EXISTS 'awful' BEFORE 'sad'",
      "ALTER TYPE public.mood ADD VALUE IF NOT EXISTS 'meh' AFTER 'sad'",
      "ALTER TYPE public.mood ADD VALUE IF NOT EXISTS 'happy' AFTER 'ok'",
    ])
    const renamed = snapshot({ enums: [{ schema: 'public', name: 'mood', values: ['sad', 'fine'] }] })
    expect(branchOnly(base, renamed).statements).toEqual(["ALTER TYPE public.mood RENAME VALUE 'ok' TO 'fine'"])
    const removed = branchOnly(base, snapshot({ enums: [{ schema: 'public', name: 'mood', values: ['ok'] }] }))
    expect(removed.statements).toEqual([])
    expect(removed.unsupported).toEqual(['type public.mood: values removed or reordered (Postgres cannot drop an enum value)'])
  })

  test('makes functions before the tables that call them, later ones after, then views in creation order and triggers', () => {
    const fn = (name: string, order: number, needsRelations: boolean) => ({
      schema: 'public', name, args: '', kind: 'f', returns: 'trigger', needsRelations, order,
      definition: `CREATE OR REPLACE FUNCTION public.${name}()\n RETURNS trigger\n LANGUAGE plpgsql\nAS $function$ begin return new; end $function$\n`,
    })
    const branch = snapshot({
      ...items,
      functions: [fn('touch', 10, false), fn('rows_of_items', 11, true)],
      views: [
        { schema: 'public', name: 'big_items', materialized: false, definition: ' SELECT id FROM public.v_items;', options: [], order: 30 },
        { schema: 'public', name: 'v_items', materialized: false, definition: ' SELECT id FROM public.items;', options: ['security_invoker=true'], order: 20 },
      ],
      triggers: [{ schema: 'public', table: 'items', name: 'touch_items', definition: 'CREATE TRIGGER touch_items BEFORE UPDATE ON public.items FOR EACH ROW EXECUTE FUNCTION public.touch()', enabled: 'D' }],
      // What a new function gets anyway: nothing to write.
      routineGrants: ['touch', 'rows_of_items'].map((name) => ({ schema: 'public', name, args: '', kind: 'f', grantee: null, privileges: ['EXECUTE'] })),
    })
    const statements = branchOnly(items, branch).statements
    expect(statements.map((statement) => statement.split('\n')[0])).toEqual([
      'SET LOCAL check_function_bodies = off',
      'CREATE OR REPLACE FUNCTION public.touch()',
      'CREATE OR REPLACE FUNCTION public.rows_of_items()',
      'CREATE VIEW public.v_items WITH (security_invoker=true) AS',
      'CREATE VIEW public.big_items AS',
      'CREATE TRIGGER touch_items BEFORE UPDATE ON public.items FOR EACH ROW EXECUTE FUNCTION public.touch()',
      'ALTER TABLE public.items DISABLE TRIGGER touch_items',
    ])
    expect(statements[3]).toBe('CREATE VIEW public.v_items WITH (security_invoker=true) AS\nSELECT id FROM public.items')
  })

  test('makes a changed materialized view again with its indexes; stored snapshots compare whatever their key order', () => {
    const view = { schema: 'public', name: 'totals', materialized: true, definition: ' SELECT count(*) AS n FROM public.items;', options: [], order: 5 }
    const index = { schema: 'public', table: 'totals', name: 'totals_n', definition: 'CREATE INDEX totals_n ON public.totals USING btree (n)', onView: true }
    const base = snapshot({ ...items, views: [view], indexes: [index] })
    const branch = snapshot({ ...items, views: [{ ...view, definition: ' SELECT count(*) AS n FROM public.items WHERE (size > 1);' }], indexes: [index] })
    expect(branchOnly(base, branch).statements).toEqual([
      'DROP MATERIALIZED VIEW public.totals',
      'CREATE MATERIALIZED VIEW public.totals AS\nSELECT count(*) AS n FROM public.items WHERE (size > 1)',
      'CREATE INDEX totals_n ON public.totals USING btree (n)',
    ])
    // A base stored as JSONB comes back with its keys in another order: still the same schema.
    const reordered = JSON.parse(JSON.stringify(base, (_key, value) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value)))
    expect(diffSchemas({ base: reordered, parentBefore: base, branch: base }).statements).toEqual([])
  })

  const view = (name: string, body: string, order: number): ViewDef => ({ schema: 'public', name, materialized: false, definition: ` ${body};`, options: [], order })
  const sqlFunction = (name: string, body: string, order: number): FunctionDef => ({
    schema: 'public', name, args: '', kind: 'f', returns: 'bigint', needsRelations: true, order,
    definition: `CREATE OR REPLACE FUNCTION public.${name}()\n RETURNS bigint\n LANGUAGE sql\nBEGIN ATOMIC\n ${body};\nEND\n`,
  })
  const ref = (kind: ObjectRef['kind'], ...names: string[]): ObjectRef => ({ kind, names })
  const needs = (from: ObjectRef, to: ObjectRef): DependencyDef => ({ from, to })

  test('orders by what the catalog says each object needs: a function reading a view after it, a table whose default calls it after that', () => {
    const branch = snapshot({
      ...items,
      views: [view('item_ids', 'SELECT id FROM public.items', 20)],
      functions: [sqlFunction('item_count', 'SELECT count(*) FROM public.item_ids', 10)],
      tables: [...items.tables, table('counters')],
      columns: [...items.columns, column('counters', 'n', 1, 'bigint', { default: 'public.item_count()' })],
      dependencies: [
        needs(ref('view', 'public', 'item_ids'), ref('table', 'public', 'items')),
        needs(ref('function', 'public', 'item_count', ''), ref('view', 'public', 'item_ids')),
        needs(ref('table', 'public', 'counters'), ref('function', 'public', 'item_count', '')),
      ],
      routineGrants: [{ schema: 'public', name: 'item_count', args: '', kind: 'f', grantee: null, privileges: ['EXECUTE'] }],
    })
    const firstLines = branchOnly(items, branch).statements.map((statement) => statement.split('\n')[0])
    expect(firstLines).toEqual([
      'SET LOCAL check_function_bodies = off',
      'CREATE VIEW public.item_ids AS',
      'CREATE OR REPLACE FUNCTION public.item_count()',
      'CREATE TABLE public.counters (',
    ])
    // Without the catalog's word the phases alone would have made the function and the table before the view.
  })

  test('drops in reverse: what needed an object on the parent goes first (a view, the function reading it, the view under it)', () => {
    const parent = snapshot({
      ...items,
      views: [view('v1', 'SELECT id FROM public.items', 20), view('v2', 'SELECT public.reads_v1() AS n', 40)],
      functions: [sqlFunction('reads_v1', 'SELECT count(*) FROM public.v1', 30)],
      dependencies: [
        needs(ref('view', 'public', 'v1'), ref('table', 'public', 'items')),
        needs(ref('function', 'public', 'reads_v1', ''), ref('view', 'public', 'v1')),
        needs(ref('view', 'public', 'v2'), ref('function', 'public', 'reads_v1', '')),
      ],
    })
    expect(branchOnly(parent, items).statements).toEqual(['DROP VIEW public.v2', 'DROP FUNCTION public.reads_v1()', 'DROP VIEW public.v1'])
  })

  test('makes a domain before the tables using it, changes one in place, and reports a new underlying type', () => {
    const positive = { schema: 'public', name: 'positive', type: 'integer', notNull: true, default: '1', collation: null, checks: [{ name: 'positive_check', definition: 'CHECK ((VALUE > 0))' }], order: 5 }
    const branch = snapshot({
      ...items,
      domains: [positive],
      enums: [{ schema: 'public', name: 'mood', values: ['ok'] }],
      tables: [...items.tables, table('scores')],
      columns: [...items.columns, column('scores', 'points', 1, 'public.positive'), column('scores', 'mood', 2, 'public.mood')],
    })
    expect(branchOnly(items, branch).statements).toEqual([
      "CREATE TYPE public.mood AS ENUM ('ok')",
      'CREATE DOMAIN public.positive AS integer DEFAULT 1 NOT NULL CONSTRAINT positive_check CHECK ((VALUE > 0))',
      'CREATE TABLE public.scores (\n  points public.positive,\n  mood public.mood\n)',
    ])
    const changed = snapshot({ ...branch, domains: [{ ...positive, default: null, notNull: false, checks: [{ name: 'positive_check', definition: 'CHECK ((VALUE > 1))' }] }] })
    expect(branchOnly(branch, changed).statements).toEqual([
      'ALTER DOMAIN public.positive DROP DEFAULT',
      'ALTER DOMAIN public.positive DROP NOT NULL',
      'ALTER DOMAIN public.positive DROP CONSTRAINT positive_check',
      'ALTER DOMAIN public.positive ADD CONSTRAINT positive_check CHECK ((VALUE > 1))',
    ])
    const retyped = branchOnly(branch, snapshot({ ...branch, domains: [{ ...positive, type: 'bigint' }] }))
    expect(retyped.statements).toEqual([])
    expect(retyped.unsupported).toEqual(['domain public.positive: its type or collation changed (make it again in a migration)'])
    expect(branchOnly(branch, items).statements).toEqual(['DROP TABLE public.scores', 'DROP DOMAIN public.positive', 'DROP TYPE public.mood'])
  })

  test('carries comments and owners: set, changed, removed, and given back to the role the merge runs as', () => {
    const base = snapshot({ ...items, comments: [{ target: ref('column', 'public', 'items', 'size'), text: 'old' }], owners: [{ target: ref('table', 'public', 'items'), role: 'app_owner' }] })
    const branch = snapshot({
      ...items,
      tables: [...items.tables, table('tags')],
      comments: [
        { target: ref('table', 'public', 'items'), text: "what's for sale" },
        { target: ref('table', 'public', 'tags'), text: 'labels' },
        { target: ref('function', 'public', 'f', 'integer'), text: 'f' },
      ],
      owners: [{ target: ref('table', 'public', 'tags'), role: 'reporting' }],
    })
    expect(branchOnly(base, branch).statements).toEqual([
      'CREATE TABLE public.tags ()',
      'ALTER TABLE public.items OWNER TO postgres',
      'ALTER TABLE public.tags OWNER TO reporting',
      'COMMENT ON COLUMN public.items.size IS NULL',
      'COMMENT ON TABLE public.items IS \'what\'\'s for sale\'',
      "COMMENT ON TABLE public.tags IS 'labels'",
      'COMMENT ON FUNCTION public.f(integer) IS \'f\'',
    ])
    // A dropped object takes its comment and owner along: nothing written for them.
    const tagged = snapshot({ ...branch, comments: branch.comments!.filter((comment) => comment.target.names[1] === 'tags') })
    expect(branchOnly(tagged, items).statements).toEqual(['DROP TABLE public.tags'])
  })

  test('column privileges: granted, revoked, and written again after their table privileges are revoked', () => {
    const base = snapshot({ ...items, grants: [{ schema: 'public', table: 'items', kind: 'r', grantee: 'anon', privileges: ['SELECT'] }], columnGrants: [{ schema: 'public', table: 'items', column: 'size', grantee: 'anon', privileges: ['UPDATE'] }] })
    const branch = snapshot({
      ...base,
      grants: [{ schema: 'public', table: 'items', kind: 'r', grantee: 'anon', privileges: ['INSERT', 'SELECT'] }],
      columnGrants: [...base.columnGrants!, { schema: 'public', table: 'items', column: 'id', grantee: 'reporting', privileges: ['REFERENCES', 'SELECT*'] }],
    })
    expect(branchOnly(base, branch).statements).toEqual([
      'REVOKE ALL ON TABLE public.items FROM anon',
      'GRANT INSERT, SELECT ON TABLE public.items TO anon',
      'GRANT REFERENCES (id) ON TABLE public.items TO reporting',
      'GRANT SELECT (id) ON TABLE public.items TO reporting WITH GRANT OPTION',
      // Unchanged, but the REVOKE above took it.
      'GRANT UPDATE (size) ON TABLE public.items TO anon',
    ])
    expect(branchOnly(branch, base).statements).toContain('REVOKE ALL (id) ON TABLE public.items FROM reporting')
  })

  test("function privileges: a new function's EXECUTE compared with what it gets by default (PUBLIC's included)", () => {
    const fn = { ...sqlFunction('secret_count', 'SELECT 1', 10), needsRelations: false }
    const defaultPrivileges = [{ role: 'postgres', schema: 'public', kind: 'f', grantee: 'anon', privileges: ['EXECUTE'] }]
    const base = snapshot({ ...items, defaultPrivileges })
    // Made on the branch, then closed to PUBLIC and anon and opened to one role.
    const branch = snapshot({ ...base, functions: [fn], routineGrants: [{ schema: 'public', name: 'secret_count', args: '', kind: 'f', grantee: 'reporting', privileges: ['EXECUTE'] }] })
    expect(branchOnly(base, branch).statements.filter((statement) => /^(GRANT|REVOKE)/.test(statement)).sort()).toEqual([
      'GRANT EXECUTE ON FUNCTION public.secret_count() TO reporting',
      'REVOKE ALL ON FUNCTION public.secret_count() FROM PUBLIC',
      'REVOKE ALL ON FUNCTION public.secret_count() FROM anon',
    ])
    // Exactly the defaults: nothing to write.
    const open = snapshot({ ...base, functions: [fn], routineGrants: [null, 'anon'].map((grantee) => ({ schema: 'public', name: 'secret_count', args: '', kind: 'f', grantee, privileges: ['EXECUTE'] })) })
    expect(branchOnly(base, open).statements.filter((statement) => /^(GRANT|REVOKE)/.test(statement))).toEqual([])
    // On an existing function: revoked from PUBLIC.
    const revoked = snapshot({ ...open, routineGrants: open.routineGrants!.filter((grant) => grant.grantee !== null) })
    expect(branchOnly(open, revoked).statements).toEqual(['REVOKE ALL ON FUNCTION public.secret_count() FROM PUBLIC'])
  })

  test('names what it does not compare (an operator, an aggregate) instead of losing it; an older base lacking a part tells no false conflict', () => {
    const branch = snapshot({
      ...items,
      others: [
        { kind: 'operator', identity: 'public.===(integer,integer)', digest: 'a' },
        { kind: 'aggregate', identity: 'public.total(integer)', digest: 'b' },
      ],
    })
    const diff = branchOnly(items, branch)
    expect(diff.statements).toEqual([])
    expect(diff.notCompared).toEqual(['aggregate public.total(integer) (made on the branch)', 'operator public.===(integer,integer) (made on the branch)'])
    // A base recorded before comments were compared: the parent's own comment is kept, the branch's new one written.
    const oldBase = { ...items } as Partial<typeof items>
    delete oldBase.comments
    const parent = snapshot({ ...items, comments: [{ target: ref('table', 'public', 'items'), text: 'parent' }] })
    const commented = snapshot({ ...items, comments: [{ target: ref('column', 'public', 'items', 'id'), text: 'branch' }] })
    const mixed = diffSchemas({ base: oldBase as typeof items, parentBefore: parent, branch: commented })
    expect(mixed.conflicts).toEqual([])
    expect(mixed.statements).toEqual(["COMMENT ON COLUMN public.items.id IS 'branch'"])
  })
})
