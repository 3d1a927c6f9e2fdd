import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql'
import { SignJWT } from 'jose'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * GraphQL at /graphql/v1 with pg_graphql's schema and semantics (services/graphql/engine), through the gateway
 * with the project's keys, as an app written for Supabase sends it.
 */

let t: TestPlatform
let token: string
let ref: string
let url: string
let anonKey: string
let serviceKey: string
let jwtSecret: string

interface Answer {
  status: number
  body: { data?: any; errors?: { message: string }[] }
}

async function graphql(key: string, query: string, variables?: Record<string, unknown>, bearer = key): Promise<Answer> {
  const response = await fetch(`${url}/graphql/v1`, {
    method: 'POST',
    headers: { apikey: key, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  })
  return { status: response.status, body: (await response.json()) as Answer['body'] }
}

/** The data of an answer without errors. */
async function data(key: string, query: string, variables?: Record<string, unknown>, bearer = key): Promise<any> {
  const answer = await graphql(key, query, variables, bearer)
  expect(answer.body.errors, query).toBeUndefined()
  expect(answer.status).toBe(200)
  return answer.body.data
}

async function sql(query: string) {
  const result = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, { query })
  if (result.status >= 300) throw new Error(`${query}: ${JSON.stringify(result.body)}`)
  return result.body as any[]
}

const userJwt = (sub: string) =>
  new SignJWT({ role: 'authenticated', sub }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(jwtSecret))

/**
 * The statements the GraphQL engine sends, as the driver sends them (the platform runs in this process): its
 * pool's connections are named `stratum-graphql`. BEGIN with the settings and COMMIT are the transaction around them.
 */
function recordEngineStatements(): { statements: string[]; stop(): void } {
  const statements: string[] = []
  const original = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client & { connectionParameters?: { application_name?: string } }, ...args: unknown[]) {
    if (this.connectionParameters?.application_name === 'stratum-graphql') {
      const first = args[0] as string | { text?: string }
      statements.push(typeof first === 'string' ? first : (first?.text ?? ''))
    }
    return (original as (...args: unknown[]) => unknown).apply(this, args)
  } as typeof original
  return { statements, stop: () => void (pg.Client.prototype.query = original) }
}
const isTransactionControl = (text: string) => text.startsWith('BEGIN;') || text === 'COMMIT' || text === 'ROLLBACK'

beforeAll(async () => {
  t = await startTestPlatform()
  const cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'GraphQL', organization_slug: slug, db_pass: 'graphql-password-1' })).body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  const settings = (await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })).body
  url = `${settings.app_config.protocol}://${settings.app_config.endpoint}`
  anonKey = settings.service_api_keys.find((key: { tags: string }) => key.tags === 'anon').api_key
  serviceKey = settings.service_api_keys.find((key: { tags: string }) => key.tags === 'service_role').api_key
  jwtSecret = settings.jwt_secret
  // The DDL watch (event triggers that NOTIFY pgrst) is installed when the project's PostgREST starts.
  expect((await fetch(`${url}/rest/v1/`, { headers: { apikey: anonKey } })).status).toBe(200)
  await sql(`
    create type public.status as enum ('draft', 'published', 'archived');
    create table public.author (id serial primary key, name text not null, born date);
    comment on table public.author is e'@graphql({"totalCount": {"enabled": true}})';
    create table public.post (id serial primary key, author_id int not null references public.author (id), title text not null,
      score numeric, views bigint default 0, status public.status not null default 'draft', tags text[], meta jsonb);
    create table public.comment (id serial primary key, post_id int not null references public.post (id) on delete cascade, body text not null);
    insert into public.author (name, born) values ('Ursula', '1929-10-21'), ('Iain', '1954-02-16'), ('Octavia', null);
    insert into public.post (author_id, title, score, views, status, tags, meta) values
      (1, 'The Dispossessed', 4.5, 9007199254740993, 'published', '{scifi,politics}', '{"awards": ["hugo"]}'),
      (1, 'The Left Hand of Darkness', 4.25, 10, 'published', '{scifi}', null),
      (2, 'Consider Phlebas', 3.75, 20, 'draft', '{space}', null),
      (2, 'The Player of Games', null, 30, 'archived', '{space,games}', null),
      (3, 'Kindred', 4.0, 40, 'published', '{}', null);
    insert into public.comment (post_id, body) values (1, 'a'), (1, 'b'), (2, 'c'), (3, 'd');
    create function public.post_shout(p public.post) returns text language sql stable as $$ select upper(p.title) $$;
    create function public.posts_by_status(wanted public.status) returns setof public.post language sql stable as
      $$ select * from public.post where status = wanted $$;
    create function public.add_numbers(a int, b int default 10) returns int language sql immutable as $$ select a + b $$;
    create function public.bump_views(target int) returns bigint language sql volatile as
      $$ update public.post set views = views + 1 where id = target returning views $$;

    create table public.diary (id serial primary key, owner uuid not null default auth.uid(), entry text not null);
    alter table public.diary enable row level security;
    create policy "own entries" on public.diary for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
    insert into public.diary (owner, entry) values ('11111111-1111-4111-8111-111111111111', 'mine'), ('22222222-2222-4222-8222-222222222222', 'theirs');

    create table public.staff_only (id int primary key, secret text);
    revoke all on public.staff_only from anon, authenticated;
    insert into public.staff_only values (1, 'payroll');

    create table public."odd ""name"" table" (id int primary key, "a col; drop" text);
    comment on table public."odd ""name"" table" is e'@graphql({"name": "Odd"})';
    comment on column public."odd ""name"" table"."a col; drop" is e'@graphql({"name": "aCol"})';
    insert into public."odd ""name"" table" values (1, 'it''s "quoted"');
  `)
})
afterAll(() => t?.cleanup())

describe('GraphQL with pg_graphql semantics', () => {
  it('pages a collection: filter, orderBy, first/after and last/before cursors, offset, pageInfo and totalCount', async () => {
    const page = `query($after: Cursor) { postCollection(first: 2, after: $after, orderBy: [{title: AscNullsLast}], filter: {status: {neq: archived}}) {
      edges { cursor node { title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`
    const first = (await data(anonKey, page)).postCollection
    expect(first.edges.map((edge: any) => edge.node.title)).toEqual(['Consider Phlebas', 'Kindred'])
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: first.edges[0].cursor, endCursor: first.edges[1].cursor })
    // pg_graphql's cursor: base64 of the JSON array of the ordering columns' values (orderBy, then the primary key).
    expect(JSON.parse(Buffer.from(first.pageInfo.endCursor, 'base64').toString())).toEqual(['Kindred', 5])
    const second = (await data(anonKey, page, { after: first.pageInfo.endCursor })).postCollection
    expect(second.edges.map((edge: any) => edge.node.title)).toEqual(['The Dispossessed', 'The Left Hand of Darkness'])
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
    const backwards = (await data(anonKey, `{ postCollection(last: 2, before: "${second.edges[1].cursor}", orderBy: [{title: AscNullsLast}]) {
      edges { node { title } } pageInfo { hasNextPage hasPreviousPage } } }`)).postCollection
    expect(backwards.edges.map((edge: any) => edge.node.title)).toEqual(['Kindred', 'The Dispossessed'])
    expect(backwards.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true })
    const skipped = (await data(anonKey, '{ postCollection(first: 2, offset: 3) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } }')).postCollection
    expect(skipped).toEqual({ edges: [{ node: { id: 4 } }, { node: { id: 5 } }], pageInfo: { hasNextPage: false, hasPreviousPage: true } })
    const counted = (await data(anonKey, '{ authorCollection(filter: {born: {is: NOT_NULL}}) { totalCount edges { node { name } } } }')).authorCollection
    expect(counted.totalCount).toBe(2)
    // totalCount exists only where the directive enables it.
    expect((await graphql(anonKey, '{ postCollection { totalCount } }')).body.errors?.[0]?.message).toBe('unknown field in connection')
    const nulls = (await data(anonKey, '{ postCollection(orderBy: [{score: DescNullsFirst}], first: 2) { edges { node { id score } } } }')).postCollection
    expect(nulls.edges.map((edge: any) => edge.node)).toEqual([{ id: 4, score: null }, { id: 1, score: '4.5' }])
    await expect(graphql(anonKey, '{ postCollection(first: 1, last: 1) { edges { cursor } } }')).resolves.toMatchObject({
      body: { data: null, errors: [{ message: 'only one of "first" and "last" may be provided' }] },
    })
  })

  it('filters with every comparison, and/or/not, and answers BigInt and BigFloat as strings', async () => {
    const titles = async (filter: string) =>
      (await data(anonKey, `{ postCollection(filter: ${filter}, orderBy: [{id: AscNullsLast}]) { edges { node { title } } } }`)).postCollection.edges.map(
        (edge: any) => edge.node.title,
      )
    expect(await titles('{id: {eq: 1}}')).toEqual(['The Dispossessed'])
    expect(await titles('{id: {in: [2, 3]}}')).toEqual(['The Left Hand of Darkness', 'Consider Phlebas'])
    expect(await titles('{views: {gt: "20", lte: "40"}}')).toEqual(['The Player of Games', 'Kindred'])
    expect(await titles('{score: {gte: "4.25", lt: "4.5"}}')).toEqual(['The Left Hand of Darkness'])
    expect(await titles('{score: {is: NULL}}')).toEqual(['The Player of Games'])
    expect(await titles('{title: {like: "%Games"}}')).toEqual(['The Player of Games'])
    expect(await titles('{title: {ilike: "the %"}}')).toEqual(['The Dispossessed', 'The Left Hand of Darkness', 'The Player of Games'])
    expect(await titles('{title: {startsWith: "Con"}}')).toEqual(['Consider Phlebas'])
    expect(await titles('{tags: {contains: ["space"]}}')).toEqual(['Consider Phlebas', 'The Player of Games'])
    expect(await titles('{or: [{id: {eq: 1}}, {and: [{status: {eq: draft}}, {not: {title: {neq: "Consider Phlebas"}}}]}]}')).toEqual(['The Dispossessed', 'Consider Phlebas'])
    expect(await titles('{status: {in: [archived, draft]}, not: {id: {eq: 3}}}')).toEqual(['The Player of Games'])
    const big = (await data(anonKey, '{ postCollection(filter: {id: {eq: 1}}) { edges { node { views score meta tags status } } } }')).postCollection.edges[0].node
    // 2^53 + 1 survives as text; JSON comes back as its text, as pg_graphql answers it.
    expect(big).toEqual({ views: '9007199254740993', score: '4.5', meta: '{"awards": ["hugo"]}', tags: ['scifi', 'politics'], status: 'published' })
  })

  it('compiles a query with nested relations to ONE statement, whatever the number of rows', async () => {
    const query = `{ authorCollection { edges { node { name postCollection { edges { node { title commentCollection { edges { node { body } } } post_shout } } } } } } }`
    await data(anonKey, query) // the schema is reflected on the first request
    const recorder = recordEngineStatements()
    try {
      const answer = await data(anonKey, query)
      const ursula = answer.authorCollection.edges[0].node
      expect(ursula.name).toBe('Ursula')
      expect(ursula.postCollection.edges.map((edge: any) => edge.node.commentCollection.edges.length)).toEqual([2, 1])
      expect(ursula.postCollection.edges[0].node.post_shout).toBe('THE DISPOSSESSED')
      // A to-one relation from the many side.
      const reverse = await data(anonKey, '{ commentCollection(first: 1) { edges { node { body post { title author { name } } } } } }')
      expect(reverse.commentCollection.edges[0].node).toEqual({ body: 'a', post: { title: 'The Dispossessed', author: { name: 'Ursula' } } })
      const statements = recorder.statements.filter((text) => !isTransactionControl(text))
      expect(statements).toHaveLength(2)
      expect(recorder.statements.filter((text) => text.startsWith('BEGIN;'))).toHaveLength(2)
    } finally {
      recorder.stop()
    }
  })

  it('runs as the request role: row level security for anon and a signed-in user, privileges decide what exists', async () => {
    const entries = async (bearer: string) =>
      (await data(anonKey, '{ diaryCollection { edges { node { entry } } } }', undefined, bearer)).diaryCollection.edges.map((edge: any) => edge.node.entry)
    expect(await entries(anonKey)).toEqual([])
    expect(await entries(await userJwt('11111111-1111-4111-8111-111111111111'))).toEqual(['mine'])
    expect(await entries(serviceKey)).toEqual(['mine', 'theirs'])
    const jwt = await userJwt('22222222-2222-4222-8222-222222222222')
    const written = await data(anonKey, 'mutation { insertIntodiaryCollection(objects: [{entry: "new"}]) { records { entry owner } } }', undefined, jwt)
    expect(written.insertIntodiaryCollection.records).toEqual([{ entry: 'new', owner: '22222222-2222-4222-8222-222222222222' }])
    // A table anon may not read has no collection for anon; the service role sees it.
    expect((await graphql(anonKey, '{ staff_onlyCollection { edges { node { id } } } }')).body.errors?.[0]?.message).toBe('Unknown field "staff_onlyCollection" on type Query')
    expect((await data(serviceKey, '{ staff_onlyCollection { edges { node { secret } } } }')).staff_onlyCollection.edges).toEqual([{ node: { secret: 'payroll' } }])
  })

  it('inserts, updates and deletes; atMost refuses and rolls back', async () => {
    const inserted = await data(serviceKey, `mutation { insertIntoauthorCollection(objects: [{name: "Le Guin"}, {name: "Banks", born: "1954-02-16"}]) {
      affectedCount records { id name born postCollection { edges { node { id } } } } } }`)
    expect(inserted.insertIntoauthorCollection.affectedCount).toBe(2)
    const ids = inserted.insertIntoauthorCollection.records.map((record: any) => record.id)
    expect(inserted.insertIntoauthorCollection.records[1]).toMatchObject({ name: 'Banks', born: '1954-02-16', postCollection: { edges: [] } })
    const tooMany = await graphql(serviceKey, `mutation { updateauthorCollection(set: {name: "Same"}, filter: {id: {in: [${ids}]}}) { affectedCount } }`)
    expect(tooMany.body).toEqual({ data: null, errors: [{ message: 'update impacts too many records' }] })
    const names = async () => (await sql(`select name from public.author where id in (${ids}) order by id`)).map((row) => row.name)
    expect(await names()).toEqual(['Le Guin', 'Banks'])
    const updated = await data(serviceKey, `mutation { updateauthorCollection(set: {name: "Same"}, filter: {id: {in: [${ids}]}}, atMost: 2) { affectedCount records { name } } }`)
    expect(updated.updateauthorCollection).toEqual({ affectedCount: 2, records: [{ name: 'Same' }, { name: 'Same' }] })
    const refused = await graphql(serviceKey, `mutation { deleteFromauthorCollection(filter: {name: {eq: "Same"}}) { affectedCount } }`)
    expect(refused.body.errors?.[0]?.message).toBe('delete impacts too many records')
    expect(await names()).toEqual(['Same', 'Same'])
    // Two mutations in one operation share the transaction: the second's failure undoes the first.
    const both = await graphql(serviceKey, `mutation { a: insertIntoauthorCollection(objects: [{name: "Ghost"}]) { affectedCount }
      b: deleteFromauthorCollection(filter: {name: {eq: "Same"}}) { affectedCount } }`)
    expect(both.body.errors?.[0]?.message).toBe('delete impacts too many records')
    expect(await sql(`select count(*)::int as n from public.author where name = 'Ghost'`)).toEqual([{ n: 0 }])
    const deleted = await data(serviceKey, `mutation { deleteFromauthorCollection(filter: {name: {eq: "Same"}}, atMost: 2) { affectedCount records { id } } }`)
    expect(deleted.deleteFromauthorCollection.affectedCount).toBe(2)
    expect((await graphql(serviceKey, 'mutation { insertIntoauthorCollection(objects: []) { affectedCount } }')).body.errors?.[0]?.message).toBe(
      'At least one record must be provided to objects',
    )
  })

  it('fetches any record by nodeId through the Node interface, and by primary key', async () => {
    const { postCollection } = await data(anonKey, '{ postCollection(first: 1) { edges { node { nodeId } } } }')
    const nodeId = postCollection.edges[0].node.nodeId
    expect(JSON.parse(Buffer.from(nodeId, 'base64').toString())).toEqual(['public', 'post', 1])
    const node = await data(anonKey, `{ node(nodeId: "${nodeId}") { nodeId __typename ... on post { title author { name } } ... on author { born } } }`)
    expect(node.node).toEqual({ nodeId, __typename: 'post', title: 'The Dispossessed', author: { name: 'Ursula' } })
    expect((await data(anonKey, '{ authorByPk(id: 2) { name } }')).authorByPk).toEqual({ name: 'Iain' })
    const filtered = await data(anonKey, `{ postCollection(filter: {nodeId: {eq: "${nodeId}"}}) { edges { node { id } } } }`)
    expect(filtered.postCollection.edges).toEqual([{ node: { id: 1 } }])
  })

  it('exposes functions: stable ones and computed fields as queries, volatile ones as mutations; enums by their labels', async () => {
    const answer = await data(anonKey, '{ add_numbers(a: 1) twice: add_numbers(a: 1, b: 2) posts_by_status(wanted: archived) { edges { node { title post_shout } } } }')
    expect(answer).toEqual({ add_numbers: 11, twice: 3, posts_by_status: { edges: [{ node: { title: 'The Player of Games', post_shout: 'THE PLAYER OF GAMES' } }] } })
    const bumped = await data(serviceKey, 'mutation { bump_views(target: 2) }')
    expect(bumped).toEqual({ bump_views: '11' })
    const enumValues = await data(anonKey, '{ __type(name: "status") { kind enumValues { name } } }')
    expect(enumValues.__type).toEqual({ kind: 'ENUM', enumValues: [{ name: 'draft' }, { name: 'published' }, { name: 'archived' }] })
    expect((await graphql(anonKey, '{ add_numbers(a: 1) { x } }')).body.errors?.[0]?.message).toMatch(/must not have a selection/)
  })

  it('answers introspection as GraphiQL asks it, with pg_graphql names', async () => {
    const answer = await data(anonKey, getIntrospectionQuery())
    const schema = printSchema(buildClientSchema(answer as IntrospectionQuery))
    for (const type of ['type post implements Node', 'type postConnection', 'type postEdge', 'input postFilter', 'input postOrderBy', 'input postInsertInput',
      'input postUpdateInput', 'type postInsertResponse', 'type postUpdateResponse', 'type postDeleteResponse', 'scalar BigInt', 'scalar BigFloat',
      'scalar Cursor', 'scalar Date', 'scalar Datetime', 'scalar JSON', 'scalar UUID', 'enum OrderByDirection', 'enum FilterIs', 'interface Node']) {
      expect(schema).toContain(type)
    }
    expect(schema).toContain('insertIntopostCollection(objects: [postInsertInput!]!): postInsertResponse')
    expect(schema).toContain('updatepostCollection(')
    expect(schema).toMatch(/atMost: Int! = 1/)
  })

  it('follows DDL without a restart: new tables, columns and directives appear', async () => {
    await sql(`create table public.fresh (id int primary key, label text); insert into public.fresh values (7, 'seven');
      comment on schema public is e'@graphql({"inflect_names": true})'`)
    await waitFor(async () => (await graphql(anonKey, '{ freshCollection { edges { node { id label } } } }')).body.data?.freshCollection?.edges[0]?.node.label === 'seven', {
      timeoutMs: 20_000, what: 'the new table in the GraphQL schema',
    })
    // inflect_names: snake_case columns and tables become camelCase fields and PascalCase types.
    const inflected = await data(anonKey, '{ postCollection(first: 1) { edges { node { authorId __typename } } } }')
    expect(inflected.postCollection.edges[0].node).toEqual({ authorId: 1, __typename: 'Post' })
    await sql(`comment on schema public is null`)
    await waitFor(async () => (await graphql(anonKey, '{ postCollection(first: 1) { edges { node { author_id } } } }')).body.errors === undefined, {
      timeoutMs: 20_000, what: 'names as they are again',
    })
  })

  it('keeps hostile names and values out of the SQL text', async () => {
    const odd = await data(anonKey, `{ oddCollection(filter: {aCol: {eq: "it's \\"quoted\\""}}) { edges { node { nodeId id aCol } } } }`)
    expect(odd.oddCollection.edges[0].node).toMatchObject({ id: 1, aCol: `it's "quoted"` })
    const hostile = `x'); drop table public.post; --`
    const none = await data(anonKey, 'query($t: String) { postCollection(filter: {title: {eq: $t}}) { edges { node { id } } } }', { t: hostile })
    expect(none.postCollection.edges).toEqual([])
    const written = await data(serviceKey, 'mutation($t: String!) { insertIntoauthorCollection(objects: [{name: $t}]) { records { name } } }', { t: hostile })
    expect(written.insertIntoauthorCollection.records).toEqual([{ name: hostile }])
    expect(await sql('select count(*)::int as n from public.post')).toEqual([{ n: 5 }])
    // A forged cursor or node id is refused, not run.
    expect((await graphql(anonKey, '{ postCollection(after: "bm90IGpzb24=") { edges { cursor } } }')).body.errors?.[0]?.message).toBe('Invalid cursor')
    const otherTable = Buffer.from(JSON.stringify(['public', 'author', 1])).toString('base64')
    expect((await graphql(anonKey, `{ postCollection(filter: {nodeId: {eq: "${otherTable}"}}) { edges { cursor } } }`)).body.errors?.[0]?.message).toBe(
      'nodeId belongs to a different collection',
    )
    // Depth is limited: each nested collection is three levels (collection, edges, node).
    let deep = '{ id }'
    for (let level = 0; level < 6; level++) deep = `{ id postCollection { edges { node { id author ${deep} } } } }`
    const tooDeep = await graphql(anonKey, `{ authorCollection { edges { node ${deep} } } }`)
    expect(tooDeep.body.errors?.[0]?.message).toMatch(/nested \d+ levels deep/)
  })
  it("is served on the project URL's fast path like REST: CORS on the answer, each request logged with its role, refusals in GraphQL's shape", async () => {
    const response = await fetch(`${url}/graphql/v1`, {
      method: 'POST',
      headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json', origin: 'http://elsewhere.example' },
      body: JSON.stringify({ query: '{ __typename }' }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    // A bearer of the project whose role GraphQL does not run as: the gateway's 401, as before.
    const foreignRole = await new SignJWT({ role: 'postgres' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(jwtSecret))
    const refused = await graphql(anonKey, '{ __typename }', undefined, foreignRole)
    expect(refused.status).toBe(401)
    expect(refused.body.errors?.[0]?.message).toMatch(/^Invalid JWT/)
    await t.platform.ctx.requestLog.flush()
    const { rows } = await t.platform.ctx.db.query(
      `SELECT method, path, status, role, service FROM api_request_log WHERE project_ref = $1 AND service = 'graphql' ORDER BY id`,
      [ref],
    )
    expect(rows).toContainEqual({ method: 'POST', path: '/graphql/v1', status: 200, role: 'anon', service: 'graphql' })
    expect(rows).toContainEqual(expect.objectContaining({ method: 'POST', path: '/graphql/v1', status: 401, service: 'graphql' }))
  })
})
