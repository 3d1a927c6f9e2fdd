import { GraphQLEnumType, GraphQLScalarType, buildSchema, execute, getOperationAST, parse, type FragmentDefinitionNode, type GraphQLFieldResolver } from 'graphql'
import { describe, expect, it } from 'vitest'
import { shapeResponse } from '../../src/services/graphql/engine/shape.js'

/*
 * The engine's fast shaping of a statement's JSON (shape.ts) must answer exactly what graphql-js's execute answers
 * over the same JSON, or hand the case to it (null). Each case runs both and compares.
 */
const schema = buildSchema(`
  interface Node { nodeId: ID! }
  enum Mood { HAPPY SAD }
  scalar BigInt
  type Query { booksCollection(first: Int): BooksConnection  node(nodeId: ID!): Node  count: BigInt  strict: Books! }
  type Mutation { insertIntoBooksCollection: BooksInsertResponse }
  type BooksInsertResponse { affectedCount: Int! records: [Books!]! }
  type BooksConnection { edges: [BooksEdge!]!  pageInfo: PageInfo! }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type BooksEdge { node: Books!  cursor: String! }
  type Books implements Node { nodeId: ID!  id: Int!  title: String  mood: Mood  price: Float  big: BigInt  author: Authors  tags: [String] }
  type Authors { name: String! }
`)
const mood = schema.getType('Mood') as GraphQLEnumType
// The engine's enums carry the database's labels as values (pg_graphql maps names to labels).
for (const value of mood.getValues()) value.value = value.name.toLowerCase()
;(mood as unknown as { _valueLookup: Map<unknown, unknown> })._valueLookup = new Map(mood.getValues().map((value) => [value.value, value]))
const big = schema.getType('BigInt') as GraphQLScalarType
big.serialize = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value))

const fromJson: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) =>
  source && typeof source === 'object' ? (source as Record<string, unknown>)[String(info.path.key)] : undefined

async function both(query: string, root: Record<string, unknown>, variables: Record<string, unknown> = {}) {
  const document = parse(query)
  const operation = getOperationAST(document)!
  const fragments: Record<string, FragmentDefinitionNode> = {}
  for (const definition of document.definitions) if (definition.kind === 'FragmentDefinition') fragments[definition.name.value] = definition
  const rootType = operation.operation === 'query' ? schema.getQueryType()! : schema.getMutationType()!
  const shaped = shapeResponse(schema, rootType, operation.selectionSet, fragments, variables, root)
  const executed = await execute({ schema, document, rootValue: root, variableValues: variables, fieldResolver: fromJson })
  return { shaped, executed }
}

const book = (id: number, extra: Record<string, unknown> = {}) => ({ id, title: `t${id}`, ...extra })

describe('shapeResponse', () => {
  it('answers what execute answers for aliases, fragments, __typename, enums, scalars, nulls and lists, in selection order', async () => {
    const query = `query Q($withTitle: Boolean!, $skipPrice: Boolean!) {
      __typename
      all: booksCollection(first: 2) {
        __typename
        edges { cursor node { ...Parts  t: title @include(if: $withTitle)  price @skip(if: $skipPrice)  ... on Books { mood }  ... on Node { nodeId } } }
        pageInfo { hasNextPage endCursor }
      }
      count
    }
    fragment Parts on Books { id  id  big  author { name }  tags  __typename }`
    const root = {
      all: {
        edges: [
          { cursor: 'c1', node: { id: 1, t: 'one', price: 1.5, mood: 'happy', nodeId: 'n1', big: '9007199254740993', author: { name: 'A' }, tags: ['x', null] } },
          { cursor: 'c2', node: { id: 2, t: null, price: null, mood: null, nodeId: 'n2', big: null, author: null, tags: null } },
        ],
        pageInfo: { hasNextPage: false, endCursor: null },
      },
      count: '12',
    }
    for (const variables of [{ withTitle: true, skipPrice: false }, { withTitle: false, skipPrice: true }]) {
      const { shaped, executed } = await both(query, root, variables)
      expect(executed.errors).toBeUndefined()
      expect(shaped).not.toBeNull()
      expect(JSON.stringify(shaped)).toBe(JSON.stringify(executed.data))
    }
  })

  it('answers a mutation root alike', async () => {
    const { shaped, executed } = await both('mutation { insertIntoBooksCollection { affectedCount records { id title } } }', {
      insertIntoBooksCollection: { affectedCount: 2, records: [book(1), book(2)] },
    })
    expect(JSON.stringify(shaped)).toBe(JSON.stringify(executed.data))
  })

  it('leaves to execute what needs its errors or its type resolution', async () => {
    // A null where the type says non-null: execute reports it and nulls the parent.
    expect((await both('{ strict { id } }', { strict: null })).shaped).toBeNull()
    expect((await both('{ booksCollection { edges { node { id } } } }', { booksCollection: { edges: [{ node: { id: null } }] } })).shaped).toBeNull()
    // A value a scalar refuses, a list that is not one.
    expect((await both('{ booksCollection { edges { node { id } } } }', { booksCollection: { edges: [{ node: { id: 'x' } }] } })).shaped).toBeNull()
    expect((await both('{ booksCollection { edges { node { id } } } }', { booksCollection: { edges: { node: { id: 1 } } } })).shaped).toBeNull()
    expect((await both('{ booksCollection { edges { node { mood } } } }', { booksCollection: { edges: [{ node: { mood: 'angry' } }] } })).shaped).toBeNull()
    // An abstract type (Node) and introspection.
    expect((await both('{ node(nodeId: "x") { nodeId } }', { node: { nodeId: 'x', '@type': 'Books' } })).shaped).toBeNull()
    expect((await both('{ __schema { queryType { name } } }', {})).shaped).toBeNull()
  })
})
