import type { DocColumn, DocTable } from './openapi'
import { shellQuote, type DocSnippet, type Language, type SnippetContext } from './snippets'

/**
 * The table's GraphQL calls, in pg_graphql's shapes as /graphql/v1 serves them: a table `todos` is the
 * query field `todosCollection` (edges, node, pageInfo), the types `todosFilter`, `todosOrderBy`,
 * `todosInsertInput` and `todosUpdateInput`, and the mutations `insertIntotodosCollection`,
 * `updatetodosCollection` and `deleteFromtodosCollection` (affectedCount and records). Names are the
 * table's and columns' own: pg_graphql's default, without `inflect_names` on the schema.
 */
export function graphqlTableSnippets(lang: Language, ctx: SnippetContext, table: DocTable): DocSnippet[] {
  const name = table.name
  if (!GRAPHQL_NAME.test(name)) return []
  const columns = table.columns.filter((column) => GRAPHQL_NAME.test(column.name))
  const key = columns[0]
  if (!key) return []
  const shown = columns.slice(0, 3).map((column) => column.name)
  const writable = columns.filter((column) => !/Primary Key/.test(column.description)).slice(0, 2)
  const row = Object.fromEntries((writable.length ? writable : [key]).map((column) => [column.name, sample(column)]))
  const set = writable[writable.length - 1] ?? key
  const filter = { [key.name]: { eq: sample(key) } }
  const fields = shown.join(' ')
  const call = (query: string, variables?: Record<string, unknown>) => request(lang, ctx, query, variables)
  const snippets: DocSnippet[] = [
    {
      id: 'graphql-read',
      title: 'GraphQL: read a page',
      description: `A page of ${name} with a filter and an order, and the cursor to ask for the next page (after: endCursor).`,
      code: call(
        [
          `query Read${pascal(name)}($filter: ${name}Filter) {`,
          `  ${name}Collection(filter: $filter, orderBy: [{ ${key.name}: DescNullsLast }], first: 10) {`,
          `    edges {`,
          `      node { ${fields} }`,
          `    }`,
          `    pageInfo { hasNextPage endCursor }`,
          `  }`,
          `}`,
        ].join('\n'),
        { filter },
      ),
    },
  ]
  if (table.canInsert)
    snippets.push({
      id: 'graphql-insert',
      title: 'GraphQL: insert',
      code: call(
        [
          `mutation Insert${pascal(name)}($objects: [${name}InsertInput!]!) {`,
          `  insertInto${name}Collection(objects: $objects) {`,
          `    affectedCount`,
          `    records { ${fields} }`,
          `  }`,
          `}`,
        ].join('\n'),
        { objects: [row] },
      ),
    })
  if (table.canUpdate)
    snippets.push({
      id: 'graphql-update',
      title: 'GraphQL: update',
      description: 'atMost is the most rows the update may change: more, and nothing changes.',
      code: call(
        [
          `mutation Update${pascal(name)}($set: ${name}UpdateInput!, $filter: ${name}Filter) {`,
          `  update${name}Collection(set: $set, filter: $filter, atMost: 1) {`,
          `    affectedCount`,
          `    records { ${fields} }`,
          `  }`,
          `}`,
        ].join('\n'),
        { set: { [set.name]: sample(set) }, filter },
      ),
    })
  if (table.canDelete)
    snippets.push({
      id: 'graphql-delete',
      title: 'GraphQL: delete',
      description: 'atMost is the most rows the delete may remove: more, and nothing is deleted.',
      code: call(
        [
          `mutation Delete${pascal(name)}($filter: ${name}Filter) {`,
          `  deleteFrom${name}Collection(filter: $filter, atMost: 1) {`,
          `    affectedCount`,
          `    records { ${key.name} }`,
          `  }`,
          `}`,
        ].join('\n'),
        { filter },
      ),
    })
  return snippets
}

/** GraphQL's names: pg_graphql leaves out tables and columns whose names are not valid GraphQL. */
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/

/** An operation name for the snippet (any name works; this one reads well). */
function pascal(name: string): string {
  return name
    .split('_')
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')
}

/**
 * A sample value as pg_graphql reads it: Int, Float and Boolean as such; BigInt, BigFloat, UUID, dates,
 * times and JSON as strings.
 */
function sample(column: DocColumn): string | number | boolean {
  const format = column.format
  if (column.type === 'boolean') return true
  if (format === 'bigint' || format === 'numeric') return '1'
  if (column.type === 'integer' || column.type === 'number') return 1
  if (format === 'uuid') return '00000000-0000-0000-0000-000000000000'
  if (format === 'date') return '2025-01-01'
  if (format.startsWith('timestamp')) return '2025-01-01T00:00:00Z'
  if (format === 'json' || format === 'jsonb') return '{}'
  return `some ${column.name}`
}

/**
 * The POST a client makes: supabase-js has no GraphQL client, so fetch with the URL and key the client
 * was made with (a signed-in user's access token as the Bearer runs it as that user), or curl.
 */
function request(lang: Language, ctx: SnippetContext, query: string, variables?: Record<string, unknown>): string {
  if (lang === 'bash') {
    const body = JSON.stringify({ query: query.replace(/\s*\n\s*/g, ' '), ...(variables ? { variables } : {}) })
    const key = ctx.key ?? '$SUPABASE_KEY'
    return [
      `curl -X POST ${shellQuote(`${ctx.url}/graphql/v1`)}`,
      `-H "apikey: ${key}"`,
      `-H "Authorization: Bearer ${key}"`,
      `-H "Content-Type: application/json"`,
      `-d ${shellQuote(body)}`,
    ].join(' \\\n')
  }
  const indented = query.replace(/\n/g, '\n    ')
  return [
    `const response = await fetch(\`\${supabaseUrl}/graphql/v1\`, {`,
    `  method: 'POST',`,
    `  headers: {`,
    `    apikey: supabaseKey,`,
    `    Authorization: \`Bearer \${supabaseKey}\`,`,
    `    'Content-Type': 'application/json',`,
    `  },`,
    `  body: JSON.stringify({`,
    `    query: \`${indented.replace(/`/g, '\\`')}\`,`,
    ...(variables ? [`    variables: ${JSON.stringify(variables)},`] : []),
    `  }),`,
    `})`,
    `const { data, errors } = await response.json()`,
  ].join('\n')
}
