import { parse, type OperationDefinitionNode } from 'graphql'
import { describe, expect, it } from 'vitest'
import type { Catalog, ColumnInfo, TableInfo, TypeInfo } from '../../src/services/graphql/engine/catalog.js'
import { compileMutation, compileQuery } from '../../src/services/graphql/engine/compile.js'
import { parseDirectives } from '../../src/services/graphql/engine/directives.js'
import { operationLimits } from '../../src/services/graphql/engine/limits.js'
import { buildModel } from '../../src/services/graphql/engine/model.js'
import { baseTypeName, columnFieldName, relationFieldName } from '../../src/services/graphql/engine/naming.js'
import { buildSchema } from '../../src/services/graphql/engine/schema.js'
import { ident, jsonObject } from '../../src/services/graphql/engine/sql.js'

const type = (oid: number, name: string, sql: string, extra: Partial<TypeInfo> = {}): TypeInfo => ({
  oid, schema: 'pg_catalog', name, kind: 'b', category: 'N', elementOid: null, baseOid: null, relationOid: null, sql, enumValues: [], directives: {}, usable: true, ...extra,
})
const column = (name: string, typeOid: number, extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
  name, typeOid, notNull: false, hasDefault: false, readOnly: false, maxChars: null, directives: {}, canSelect: true, canInsert: true, canUpdate: true, ...extra,
})
const table = (oid: number, name: string, columns: ColumnInfo[], extra: Partial<TableInfo> = {}): TableInfo => ({
  oid, schema: 'public', schemaOid: 2200, name, kind: 'r', rowTypeOid: oid + 1, directives: {}, columns, primaryKey: ['id'], uniqueKeys: [['id']],
  rlsEnabled: false, canSelect: true, canInsert: true, canUpdate: true, canDelete: true, ...extra,
})

/** Two tables, one of them with a hostile name, a foreign key between them. */
function catalog(comment: string | null = null, maxRows?: number): Catalog {
  return {
    schemas: [{ oid: 2200, name: 'public', directives: { ...parseDirectives(comment), ...(maxRows ? { max_rows: maxRows } : {}) } }],
    tables: [
      table(1, 'blog_author', [column('id', 23, { notNull: true }), column('full_name', 25)]),
      table(3, 'blog "post"', [column('id', 23, { notNull: true }), column('author_id', 23, { notNull: true }), column('title', 25)], {
        directives: { name: 'BlogPost' },
      }),
    ],
    foreignKeys: [{ name: 'fk', localTable: 3, localColumns: ['author_id'], foreignTable: 1, foreignColumns: ['id'], directives: {} }],
    functions: [],
    types: new Map([
      [23, type(23, 'int4', 'integer')],
      [25, type(25, 'text', 'text', { category: 'S' })],
    ]),
  }
}

function compile(query: string, cat = catalog(), variables: Record<string, unknown> = {}) {
  const model = buildModel(cat)
  const schema = buildSchema(model)
  const document = parse(query)
  const operation = document.definitions[0] as OperationDefinitionNode
  const collect = { fragments: {}, variables }
  return { schema, statement: operation.operation === 'query' ? compileQuery(schema, model, collect, operation) : compileMutation(schema, model, collect, operation)[0] }
}

describe('pg_graphql naming', () => {
  it('keeps SQL names by default and inflects them with the directive', () => {
    expect(baseTypeName('blog_author', false)).toBe('blog_author')
    expect(baseTypeName('blog_author', true)).toBe('BlogAuthor')
    expect(baseTypeName('account_BY_email', true)).toBe('AccountBYEmail')
    expect(columnFieldName('full_name', true)).toBe('fullName')
    expect(relationFieldName({ otherTypeName: 'BlogAuthor', columns: ['author_id'], inflect: true, unique: true })).toBe('author')
    expect(relationFieldName({ otherTypeName: 'blog_author', columns: ['author_id'], inflect: false, unique: true })).toBe('blog_author')
    expect(relationFieldName({ otherTypeName: 'BlogPost', columns: ['id'], inflect: true, unique: false })).toBe('blogPostCollection')
  })

  it('reads comment directives and ignores malformed ones', () => {
    expect(parseDirectives('text before @graphql({"totalCount": {"enabled": true}, "name": "X"})')).toEqual({ totalCount: { enabled: true }, name: 'X' })
    expect(parseDirectives('@graphql({not json})')).toEqual({})
    expect(parseDirectives('@graphql({"max_rows": -3, "primary_key_columns": "id"})')).toEqual({})
  })

  it('names the schema types as pg_graphql does', () => {
    const { schema } = compile('{ __typename }', catalog('@graphql({"inflect_names": true})'))
    const names = Object.keys(schema.getTypeMap())
    for (const name of ['BlogAuthor', 'BlogAuthorConnection', 'BlogAuthorEdge', 'BlogAuthorFilter', 'BlogAuthorOrderBy', 'BlogAuthorInsertInput',
      'BlogAuthorUpdateInput', 'BlogAuthorInsertResponse', 'BlogAuthorUpdateResponse', 'BlogAuthorDeleteResponse', 'BlogPost', 'IntFilter', 'StringFilter', 'PageInfo', 'Node']) {
      expect(names).toContain(name)
    }
    const query = schema.getQueryType()!.getFields()
    expect(Object.keys(query)).toEqual(['blogAuthorByPk', 'blogAuthorCollection', 'blogPostByPk', 'blogPostCollection', 'node'])
    expect(Object.keys(schema.getMutationType()!.getFields())).toContain('deleteFromBlogPostCollection')
    expect(Object.keys((schema.getType('BlogPost') as any).getFields())).toEqual(['nodeId', 'id', 'authorId', 'title', 'author'])
    expect(Object.keys((schema.getType('BlogAuthor') as any).getFields())).toContain('blogPostCollection')
  })
})

describe('the compiler', () => {
  it('compiles nested relations into one parameterized statement with quoted identifiers', () => {
    const { statement } = compile(`{ blog_authorCollection(filter: {full_name: {eq: "x'); drop"}}) {
      edges { node { full_name blogPostCollection { edges { node { title } } } } } } }`)
    expect(statement!.sql.startsWith('SELECT ')).toBe(true)
    expect(statement!.sql).toContain('"public"."blog ""post"""')
    expect(statement!.sql).not.toContain('drop')
    expect(statement!.params).toContain("x'); drop")
  })

  it('caps a page at max_rows (30 unless a directive says otherwise)', () => {
    expect(compile('{ blog_authorCollection(first: 1000) { edges { cursor } } }').statement!.params).toContain(30)
    expect(compile('{ blog_authorCollection(first: 1000) { edges { cursor } } }', catalog(null, 5)).statement!.params).toContain(5)
    expect(compile('{ blog_authorCollection(first: 2) { edges { cursor } } }').statement!.params).toContain(2)
  })

  it('checks atMost inside the mutation statement', () => {
    const { statement } = compile('mutation { deleteFromblog_authorCollection(filter: {id: {gt: 1}}) { affectedCount } }')
    expect(statement!.sql).toMatch(/^WITH affected AS \(DELETE FROM "public"\."blog_author" b1 WHERE .* RETURNING b1\.\*\)/)
    expect(statement!.sql).toContain("'delete impacts too many records'")
    expect(statement!.params).toEqual([1, 1])
  })

  it('limits depth and width: aliases and fragments are counted as they expand', async () => {
    const { parse: parseDocument, validate } = await import('graphql')
    const { schema } = compile('{ __typename }')
    // Aliases make a document wide cheaply; a fragment counts each time it is spread.
    const aliases = Array.from({ length: 1200 }, (_, index) => `a${index}: id`).join(' ')
    const wide = parseDocument(`{ blog_authorCollection { edges { node { ...F ...G } } } } fragment F on blog_author { ${aliases} } fragment G on blog_author { ...F }`)
    const errors = validate(schema, wide, [operationLimits(16, 2000)])
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/selects \d+ fields: the most accepted is 2000/)])
    const ok = parseDocument('{ blog_authorCollection { edges { node { id full_name } } } }')
    expect(validate(schema, ok, [operationLimits(16, 2000)])).toEqual([])
  })

  it('builds objects as json in the order of the selection, and those wider than 100 arguments in chunks', () => {
    expect(jsonObject([['b', '1'], ['a', '2']])).toBe(`json_build_object('b', 1, 'a', 2)`)
    const pairs = Array.from({ length: 120 }, (_, index): [string, string] => [`k${index}`, String(index)])
    expect(jsonObject(pairs).match(/jsonb_build_object/g)).toHaveLength(3)
    expect(jsonObject(pairs)).toMatch(/\)::json$/)
    expect(ident('a"b')).toBe('"a""b"')
  })
})
