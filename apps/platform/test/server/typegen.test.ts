import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TypescriptResponse } from '@stratum/contracts'
import { setProjectStatus } from '../../src/control/project-store.js'
import { api, login, memberWithRole, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

const DB_PASS = 'typegen-password-1'
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')

/** A reference schema: enums, identity, defaults, arrays, json, a foreign key, a view, functions, a second schema. */
const REFERENCE_SQL = `
CREATE TYPE public.mood AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE public.point2 AS (x double precision, y double precision);
CREATE TABLE public.authors (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  email varchar(120) UNIQUE,
  mood public.mood DEFAULT 'ok',
  tags text[] DEFAULT '{}',
  profile jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  rating numeric(3,1)
);
CREATE TABLE public.books (
  id serial PRIMARY KEY,
  author_id bigint NOT NULL REFERENCES public.authors (id),
  title text NOT NULL,
  title_upper text GENERATED ALWAYS AS (upper(title)) STORED
);
CREATE VIEW public.book_titles AS SELECT b.id, b.title, a.name AS author FROM public.books b JOIN public.authors a ON a.id = b.author_id;
CREATE FUNCTION public.add(a integer, b integer DEFAULT 1) RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT a + b';
CREATE FUNCTION public.authors_by_mood(m public.mood) RETURNS SETOF public.authors LANGUAGE sql STABLE AS 'SELECT * FROM public.authors WHERE mood = m';
CREATE SCHEMA other;
CREATE TABLE other.notes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body text);
`

/** Type-checks files with the TypeScript compiler API; returns the diagnostics as text. */
function typecheck(files: Record<string, string>): string[] {
  // Inside the repository so that @supabase/supabase-js resolves from node_modules.
  const dir = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.stratum-typegen-'))
  try {
    const names = Object.entries(files).map(([name, text]) => {
      fs.writeFileSync(path.join(dir, name), text)
      return path.join(dir, name)
    })
    const program = ts.createProgram(names, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      skipLibCheck: true,
      types: [],
    })
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

let t: TestPlatform
let cookie: string
let orgSlug: string
let ref: string

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Typed', organization_slug: orgSlug, db_pass: DB_PASS })
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  const project = (await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body
  const client = new pg.Client({ host: '127.0.0.1', port: project.db_port, user: 'postgres', password: DB_PASS, database: 'postgres' })
  client.on('error', () => {})
  await client.connect()
  await client.query(REFERENCE_SQL)
  await client.end()
})

afterAll(async () => {
  await t?.cleanup()
})

describe('GET /v1/projects/{ref}/types/typescript', () => {
  let types = ''

  it('answers {types} in the field format, public by default', async () => {
    const response = await api(t, 'GET', `/v1/projects/${ref}/types/typescript`, { cookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    types = TypescriptResponse.parse(response.body).types
    expect(types).toContain('export type Database = {')
    expect(types).toContain('PostgrestVersion: "12"')
    for (const part of ['Tables: {', 'Views: {', 'Functions: {', 'Enums: {', 'CompositeTypes: {', 'Row: {', 'Insert: {', 'Update: {', 'Args: {', 'Returns:']) {
      expect(types).toContain(part)
    }
    for (const helper of ['export type Tables<', 'export type TablesInsert<', 'export type TablesUpdate<', 'export type Enums<', 'export type CompositeTypes<', 'export const Constants']) {
      expect(types).toContain(helper)
    }
    expect(types).toContain('mood: "sad" | "ok" | "happy"')
    expect(types).toContain('book_titles: {')
    expect(types).not.toContain('other: {')
  })

  it('types a createClient<Database>(): typed queries compile, wrong columns do not', () => {
    const good = `
import { createClient } from '@supabase/supabase-js'
import type { Database, Tables, TablesInsert, Enums } from './database.types'
const supabase = createClient<Database>('http://localhost:54321', 'anon-key')
export async function reads() {
  const { data, error } = await supabase.from('authors').select('id, name, mood, tags, created_at').eq('name', 'Ada')
  if (error || !data) return
  const id: number = data[0]!.id
  const name: string = data[0]!.name
  const mood: Enums<'mood'> | null = data[0]!.mood
  const tags: string[] | null = data[0]!.tags
  const titles = await supabase.from('book_titles').select('title, author')
  const title: string | null | undefined = titles.data?.[0]?.title
  const joined = await supabase.from('books').select('title, authors(name)')
  const sum = await supabase.rpc('add', { a: 1 })
  const total: number | null = sum.data
  const sad = await supabase.rpc('authors_by_mood', { m: 'sad' })
  const row: Tables<'authors'> | undefined = sad.data?.[0]
  return { id, name, mood, tags, title, joined, total, row }
}
export async function writes() {
  const author: TablesInsert<'authors'> = { name: 'Ada', mood: 'happy' }
  await supabase.from('authors').insert(author)
  await supabase.from('books').insert({ author_id: 1, title: 'Notes' })
  await supabase.from('authors').update({ rating: 4.5 }).eq('id', 1)
}
`
    expect(typecheck({ 'database.types.ts': types, 'good.ts': good })).toEqual([])

    const wrongSelect = `
import { createClient } from '@supabase/supabase-js'
import type { Database } from './database.types'
const supabase = createClient<Database>('http://localhost:54321', 'anon-key')
export async function reads() {
  const { data } = await supabase.from('authors').select('id, name')
  const wrong: string | undefined = data?.[0]?.nmae
  return wrong
}
`
    const wrongInsert = `
import { createClient } from '@supabase/supabase-js'
import type { Database } from './database.types'
const supabase = createClient<Database>('http://localhost:54321', 'anon-key')
export async function writes() {
  await supabase.from('books').insert({ author_id: 1, titel: 'Notes' })
}
`
    const wrongEnum = `
import { createClient } from '@supabase/supabase-js'
import type { Database } from './database.types'
const supabase = createClient<Database>('http://localhost:54321', 'anon-key')
export async function writes() {
  await supabase.from('authors').insert({ name: 'x', mood: 'angry' })
}
`
    for (const [bad, culprit] of [[wrongSelect, "'nmae'"], [wrongInsert, "'titel'"], [wrongEnum, '"angry"']] as const) {
      const errors = typecheck({ 'database.types.ts': types, 'bad.ts': bad })
      expect(errors.length, culprit).toBeGreaterThan(0)
      expect(errors.every((e) => e.startsWith('bad.ts'))).toBe(true)
      expect(errors.join('\n')).toContain(culprit)
    }
  }, 120_000)

  it('covers every schema named in included_schemas', async () => {
    const response = await api(t, 'GET', `/v1/projects/${ref}/types/typescript?included_schemas=public,other`, { cookie })
    expect(response.status).toBe(200)
    const both = response.body.types as string
    expect(both).toContain('other: {')
    expect(both).toContain('notes: {')
    expect(both).toContain('authors: {')
    const repeated = await api(t, 'GET', `/v1/projects/${ref}/types/typescript?included_schemas=other&included_schemas=public`, { cookie })
    expect(repeated.body.types).toBe(both)
  })

  it('follows schema changes', async () => {
    const project = (await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body
    const client = new pg.Client({ host: '127.0.0.1', port: project.db_port, user: 'postgres', password: DB_PASS, database: 'postgres' })
    client.on('error', () => {})
    await client.connect()
    try {
      await client.query('CREATE TABLE public.reviews (id int PRIMARY KEY, stars smallint NOT NULL)')
      const after = await api(t, 'GET', `/v1/projects/${ref}/types/typescript`, { cookie })
      expect(after.body.types).toContain('reviews: {')
      expect(after.body.types).toContain('stars: number')
    } finally {
      await client.query('DROP TABLE IF EXISTS public.reviews')
      await client.end()
    }
  })

  it('answers 400 {message} on bad input', async () => {
    for (const query of ['included_schemas=', 'included_schemas=,', `included_schemas=${'x'.repeat(64)}`]) {
      const response = await api(t, 'GET', `/v1/projects/${ref}/types/typescript?${query}`, { cookie })
      expect(response.status, query).toBe(400)
      expect(typeof response.body.message).toBe('string')
    }
    const badRef = await api(t, 'GET', '/v1/projects/NOT-A-REF/types/typescript', { cookie })
    expect(badRef.status).toBe(400)
    expect(typeof badRef.body.message).toBe('string')
  })

  it('needs a session or token and membership; read-only members may generate', async () => {
    expect((await api(t, 'GET', `/v1/projects/${ref}/types/typescript`)).status).toBe(401)
    const reader = await memberWithRole(t, orgSlug, 'read_only')
    const read = await api(t, 'GET', `/v1/projects/${ref}/types/typescript`, { token: reader.token })
    expect(read.status).toBe(200)
    expect(read.body.types).toContain('authors: {')
    const other = await api(t, 'GET', `/v1/projects/${'z'.repeat(20)}/types/typescript`, { cookie })
    expect(other.status).toBe(404)
  })

  it('answers 409 while the project is not ACTIVE_HEALTHY', async () => {
    await setProjectStatus(t.platform.ctx.db, ref, 'PAUSING')
    try {
      const response = await api(t, 'GET', `/v1/projects/${ref}/types/typescript`, { cookie })
      expect(response.status).toBe(409)
      expect(response.body.message).toContain('PAUSING')
    } finally {
      await setProjectStatus(t.platform.ctx.db, ref, 'ACTIVE_HEALTHY')
    }
  })
})
