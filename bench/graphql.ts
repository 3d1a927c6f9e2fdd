/**
 * `npm run bench`, GraphQL (issue 31): the pg_graphql-compatible engine at /graphql/v1 beside PostgREST's
 * embedding of the same data, both through the same gateway (the same hop, keys and log), so the ratio is the
 * engines' own.
 *
 * - A list of 100 books with two nested relations (its author, a to-one; its reviews, a to-many):
 *   `booksCollection(first: 100) { edges { node { ... authors { name } reviewsCollection { ... } } } }` against
 *   `/rest/v1/books?select=id,title,authors(name),reviews(stars,body)&limit=100`.
 * - A filtered page: `booksCollection(filter: {price: {gt: 50}}, orderBy: [{id: AscNullsLast}], first: 20)`
 *   against `/rest/v1/books?select=id,title,price&price=gt.50&order=id&limit=20`.
 *
 * Goal: p50 <= 1.3x PostgREST. Measured in alternating turns so that machine noise hits both alike. PostGraphile 4
 * (the engine before) left the install with this engine, so it is not measured beside them any more.
 *
 * BENCH_GRAPHQL_CPU_PROF=<dir>: the platform process writes a V8 CPU profile there when it stops (cpu-profile-hook.mjs).
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Pool } from 'undici'
import { recordFigures, ratioOf, type Figure } from './figures.js'
import { call, median, startBenchPlatform, untilStatus } from './platform.js'

const PORT = 8791
const PORT_BLOCK = 29_400
const TURNS = 10
const PER_TURN = 20

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!

const SCHEMA = `
create table public.authors (id int primary key, name text not null);
create table public.books (id int primary key, title text not null, price numeric not null, author_id int not null references public.authors (id));
create table public.reviews (id int primary key, book_id int not null references public.books (id), stars int not null, body text not null);
create index on public.books (author_id);
create index on public.reviews (book_id);
insert into public.authors select g, 'author ' || g from generate_series(1, 40) g;
insert into public.books select g, 'book ' || g, (g % 100) + 0.5, 1 + g % 40 from generate_series(1, 1000) g;
insert into public.reviews select g, 1 + g % 1000, 1 + g % 5, 'review ' || g from generate_series(1, 3000) g;
-- pg_graphql pages 30 rows unless told otherwise: the list reads 100.
comment on table public.books is e'@graphql({"max_rows": 100})';
`

const LIST_QUERY = `{ booksCollection(first: 100, orderBy: [{id: AscNullsLast}]) { edges { node { id title authors { name } reviewsCollection { edges { node { stars body } } } } } } }`
const PAGE_QUERY = `{ booksCollection(filter: {price: {gt: "50"}}, orderBy: [{id: AscNullsLast}], first: 20) { edges { node { id title price } } } }`

interface Case {
  name: string
  graphql: string
  rest: string
  /** Rows each answer must hold (checked once, before timing). */
  rows: number
}

const CASES: Case[] = [
  { name: '100 rows with two nested relations', graphql: LIST_QUERY, rest: '/books?select=id,title,authors(name),reviews(stars,body)&order=id&limit=100', rows: 100 },
  { name: 'a filtered page of 20', graphql: PAGE_QUERY, rest: '/books?select=id,title,price&price=gt.50&order=id&limit=20', rows: 20 },
]

async function timed(run: () => Promise<number>): Promise<{ ms: number; rows: number }> {
  const started = performance.now()
  const rows = await run()
  return { ms: performance.now() - started, rows }
}

async function main() {
  const profileDir = process.env.BENCH_GRAPHQL_CPU_PROF
  const platform = await startBenchPlatform(
    PORT,
    PORT_BLOCK,
    profileDir ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(import.meta.dirname, 'cpu-profile-hook.mjs')).href}`, BENCH_CPU_PROF_DIR: profileDir } : {},
  )
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'GraphQL bench', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const ref: string = project.ref
    await call(platform, 'POST', `/v1/projects/${ref}/database/query`, { query: SCHEMA })
    const keys = (await call(platform, 'GET', `/v1/projects/${ref}/api-keys`)) as Array<{ name: string; api_key: string }>
    const anon = keys.find((key) => key.name === 'anon')!.api_key
    const headers = { apikey: anon, authorization: `Bearer ${anon}` }
    const gateway = new Pool(platform.apiBase, { connections: 4 })

    const rest = async (path: string): Promise<number> => {
      const response = await gateway.request({ method: 'GET', path: `/projects/${ref}/rest/v1${path}`, headers })
      const body = (await response.body.json()) as unknown[]
      if (response.statusCode !== 200) throw new Error(`REST ${path} answered ${response.statusCode}: ${JSON.stringify(body)}`)
      return body.length
    }
    const graphql = async (query: string): Promise<number> => {
      const response = await gateway.request({
        method: 'POST',
        path: `/projects/${ref}/graphql/v1`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      })
      const body = (await response.body.json()) as { data?: { booksCollection?: { edges: unknown[] } }; errors?: unknown[] }
      if (response.statusCode !== 200 || body.errors || !body.data?.booksCollection) throw new Error(`GraphQL answered ${response.statusCode}: ${JSON.stringify(body)}`)
      return body.data.booksCollection.edges.length
    }

    console.log('\nGraphQL (pg_graphql-compatible engine) beside PostgREST embedding, both through the gateway')
    const figures: Figure[] = []
    for (const bench of CASES) {
      const check = [await graphql(bench.graphql), await rest(bench.rest)]
      if (check.some((rows) => rows !== bench.rows)) throw new Error(`${bench.name}: answers hold ${check.join(' and ')} rows, expected ${bench.rows}`)
      for (let i = 0; i < 20; i++) {
        await graphql(bench.graphql)
        await rest(bench.rest)
      }
      const viaGraphql: number[] = []
      const viaRest: number[] = []
      for (let turn = 0; turn < TURNS; turn++) {
        for (let i = 0; i < PER_TURN; i++) viaGraphql.push((await timed(() => graphql(bench.graphql))).ms)
        for (let i = 0; i < PER_TURN; i++) viaRest.push((await timed(() => rest(bench.rest))).ms)
      }
      const ratio = ratioOf(median(viaGraphql), median(viaRest))
      console.log(
        `  ${bench.name}: GraphQL p50 ${median(viaGraphql).toFixed(2)} ms (p99 ${percentile(viaGraphql, 0.99).toFixed(2)}), ` +
          `PostgREST p50 ${median(viaRest).toFixed(2)} ms (p99 ${percentile(viaRest, 0.99).toFixed(2)}): ratio ${ratio} (goal <= 1.3)`,
      )
      figures.push({
        name: `GraphQL, ${bench.name} (p50)`,
        now: `${median(viaGraphql).toFixed(2)} ms (p99 ${percentile(viaGraphql, 0.99).toFixed(2)} ms)`,
        floor: `PostgREST embedding of the same rows ${median(viaRest).toFixed(2)} ms`,
        ratio,
        goal: '<= 1.3x PostgREST',
        met: ratio <= 1.3,
      })
    }
    recordFigures('graphql', figures)
    await gateway.close()
  } finally {
    await platform.stop()
  }
}

await main()
