import { AI_KEY_NOT_SET_MESSAGE, AI_KEY_SET_MESSAGE, AiKeyCheckResponse, AiTitleResponse } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '../../src/auth/users.js'
import { AiService } from '../../src/ai/model.js'
import { buildHttpApp } from '../../src/http/app.js'
import { AI_EMPTY_COMPLETION_MESSAGE } from '../../src/http/routes/ai.js'
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../support/openai-compatible-server.mjs'
import { ADMIN_EMAIL, api, login, memberWithRole, startTestPlatform, tokenFor, waitFor, waitForStatus, type ApiResult, type Caller, type TestPlatform } from './harness.js'

let fake: OpenAiCompatibleServer
let t: TestPlatform
let owner: Caller
let ref: string
let readOnly: Caller
let outsider: Caller

const TABLE = 'customer_orders_x7'
const completion = (overrides: Record<string, unknown> = {}) => ({
  projectRef: ref,
  completionMetadata: {
    textBeforeCursor: `select * from ${TABLE}\nwhere `,
    textAfterCursor: '\norder by id;',
    language: 'pgsql',
    prompt: 'only the big orders',
    selection: 'total > 0',
    ...overrides,
  },
})

beforeAll(async () => {
  fake = await startOpenAiCompatibleServer({ apiKey: 'test-key' })
  t = await startTestPlatform({
    STRATUM_AI_PROVIDER: 'openai-compatible',
    STRATUM_AI_BASE_URL: fake.url,
    STRATUM_AI_MODEL: 'test-model',
    STRATUM_AI_API_KEY: 'test-key',
  })
  owner = { cookie: await login(t) }
  const orgSlug = (await api(t, 'GET', '/platform/organizations', owner)).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', owner, { name: 'Ai', organization_slug: orgSlug, db_pass: 'ai-password-1' })
  ref = created.body.ref
  await waitForStatus(t, ref, owner, 'ACTIVE_HEALTHY', 20_000)
  const table = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, owner, {
    query: `create table ${TABLE} (id bigint primary key, total numeric not null)`,
    read_only: false,
  })
  expect(table.status).toBe(201)
  readOnly = { token: (await memberWithRole(t, orgSlug, 'read_only')).token }
  const stranger = 'stranger@example.com'
  await createUser(t.platform.ctx.db, stranger, 'stranger-password-1')
  outsider = { token: await tokenFor(t, stranger) }
})
afterAll(async () => {
  await t?.cleanup()
  await fake?.close()
})

describe('AI key check', () => {
  it('says a provider is configured, to signed-in users only', async () => {
    const check = await api(t, 'GET', '/api/ai/sql/check-api-key', owner)
    expect(check.status).toBe(200)
    expect(AiKeyCheckResponse.parse(check.body)).toEqual({ hasKey: true, message: AI_KEY_SET_MESSAGE })
    expect((await api(t, 'GET', '/api/ai/sql/check-api-key')).status).toBe(401)
  })
})

describe('inline completion', () => {
  it("streams the model's SQL, written with the project's real tables", async () => {
    fake.setReply(() => `select *\nfrom ${TABLE}\nwhere total > 100;`)
    const before = fake.requests.length
    const result = await api(t, 'POST', '/api/ai/sql/complete-v2', owner, completion())
    expect(result.status).toBe(200)
    expect(result.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(result.body).toBe(`select *\nfrom ${TABLE}\nwhere total > 100;`)

    expect(fake.requests).toHaveLength(before + 1)
    const sent = fake.requests.at(-1)
    expect(sent.model).toBe('test-model')
    expect(sent.stream).toBe(true)
    expect(sent.authorization).toBe('Bearer test-key')
    const [system, user] = sent.messages
    expect(system.role).toBe('system')
    expect(system.content).toContain('Answer ONLY with the SQL')
    expect(system.content).toContain(`public.${TABLE}(id int8 pk, total numeric)`)
    expect(user.content).toContain('Instruction: only the big orders')
    expect(user.content).toContain('<selection>\ntotal > 0\n</selection>')
    expect(user.content).toContain('order by id;')
  })

  it('is streamed as chunked text while the model writes', async () => {
    fake.setReply(() => 'select id, total from customer_orders_x7 where total > 1000 order by total desc;')
    const response = await fetch(`${t.platform.url}/api/ai/sql/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie!, origin: t.platform.url },
      body: JSON.stringify(completion({ selection: '' })),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('transfer-encoding')).toBe('chunked')
    const decoder = new TextDecoder()
    let text = ''
    for await (const chunk of response.body!) text += decoder.decode(chunk, { stream: true })
    expect(text).toBe('select id, total from customer_orders_x7 where total > 1000 order by total desc;')
    expect(fake.requests.at(-1).messages[1].content).toContain('inserted at the cursor')
  })

  it('removes the markdown fences a model adds anyway', async () => {
    fake.setReply(() => '```sql\nselect 1;\n```\nThis selects one.')
    const result = await api(t, 'POST', '/api/ai/sql/complete-v2', owner, completion())
    expect(result.body).toBe('select 1;')
  })

  it("answers a provider failure as a 502 with the provider's message", async () => {
    fake.setReply(() => ({ status: 401, message: 'Incorrect API key provided' }))
    const refused = await api(t, 'POST', '/api/ai/sql/complete-v2', owner, completion())
    expect(refused.status).toBe(502)
    expect(refused.headers.get('content-type')).toContain('application/json')
    expect(refused.body).toEqual({ message: 'Incorrect API key provided' })

    for (const nothing of ['', ' \n ', '```sql\n```']) {
      fake.setReply(() => nothing)
      const empty = await api(t, 'POST', '/api/ai/sql/complete-v2', owner, completion())
      expect(empty.status).toBe(502)
      expect(empty.body).toEqual({ message: AI_EMPTY_COMPLETION_MESSAGE })
    }
  })

  it('refuses bad input with a message', async () => {
    const noPrompt = await api(t, 'POST', '/api/ai/sql/complete-v2', owner, { projectRef: ref, completionMetadata: { textBeforeCursor: '', textAfterCursor: '' } })
    expect(noPrompt.status).toBe(400)
    expect(noPrompt.body).toEqual({ message: 'prompt is required' })
    const blank = await api(t, 'POST', '/api/ai/sql/complete-v2', owner, completion({ prompt: '   ' }))
    expect(blank.body).toEqual({ message: 'prompt cannot be empty' })
    const badRef = await api(t, 'POST', '/api/ai/sql/complete-v2', owner, { ...completion(), projectRef: 'nope' })
    expect(badRef.status).toBe(400)
    expect(badRef.body.message).toBe('projectRef must be a project reference')
  })

  it("hides other organizations' projects, and lets a read-only member use it", async () => {
    fake.setReply(() => 'select 2;')
    const before = fake.requests.length
    const stranger = await api(t, 'POST', '/api/ai/sql/complete-v2', outsider, completion())
    expect(stranger.status).toBe(404)
    expect(stranger.body).toEqual({ message: `Project ${ref} not found` })
    expect(fake.requests).toHaveLength(before)

    const reader = await api(t, 'POST', '/api/ai/sql/complete-v2', readOnly, completion())
    expect(reader.status).toBe(200)
    expect(reader.body).toBe('select 2;')
  })
})

describe('a cancelled completion', () => {
  it('aborts the model call when the client goes away', async () => {
    let cancelled = false
    fake.setReply(
      ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            cancelled = true
            resolve('too late')
          })
          setTimeout(() => resolve('select 3;'), 10_000)
        }),
    )
    const client = new AbortController()
    const request = fetch(`${t.platform.url}/api/ai/sql/complete-v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie!, origin: t.platform.url },
      body: JSON.stringify(completion()),
      signal: client.signal,
    }).catch((error: unknown) => error)
    // Wait until the platform's call has reached the model, then close the editor tab.
    const sent = fake.requests.length
    await waitFor(() => fake.requests.length > sent, { intervalMs: 20, what: 'the call to reach the model' })
    client.abort()
    expect(await request).toBeInstanceOf(Error)
    await waitFor(() => cancelled, { intervalMs: 20, what: 'the model call to be aborted' })
    expect(cancelled).toBe(true)
  })
})

describe('snippet title', () => {
  it('names a snippet from its SQL', async () => {
    fake.setReply(() => '```json\n{"title": "Big customer orders.", "description": "Lists orders with a total above 100."}\n```')
    const result = await api(t, 'POST', '/api/ai/sql/title-v2', owner, { sql: `select * from ${TABLE} where total > 100`, projectRef: ref })
    expect(result.status).toBe(200)
    expect(AiTitleResponse.parse(result.body)).toEqual({ title: 'Big customer orders', description: 'Lists orders with a total above 100.' })
    const sent = fake.requests.at(-1)
    expect(sent.stream).toBeFalsy()
    expect(sent.messages.at(-1).content).toContain(`select * from ${TABLE} where total > 100`)

    const alias = await api(t, 'POST', '/api/ai/sql/title', readOnly, { sql: 'select 1' })
    expect(alias.status).toBe(200)
  })

  it('refuses bad input, strangers, and passes provider failures on as 502', async () => {
    expect((await api(t, 'POST', '/api/ai/sql/title-v2', owner, { sql: '  ' })).body).toEqual({ message: 'sql cannot be empty' })
    expect((await api(t, 'POST', '/api/ai/sql/title-v2', outsider, { sql: 'select 1', projectRef: ref })).status).toBe(404)
    fake.setReply(() => ({ status: 404, message: 'The model `test-model` does not exist' }))
    const failed = await api(t, 'POST', '/api/ai/sql/title-v2', owner, { sql: 'select 1' })
    expect(failed.status).toBe(502)
    expect(failed.body).toEqual({ message: 'The model `test-model` does not exist' })
  })
})

describe('rate limit', () => {
  it('limits each user to STRATUM_AI_RATE_LIMIT model calls a minute', async () => {
    let refused: ApiResult<{ message: string }> | null = null
    // Blank SQL is refused without calling the model, but still counts: the limit comes first.
    for (let i = 0; i <= t.config.aiRateLimitPerMinute && !refused; i++) {
      const result = await api(t, 'POST', '/api/ai/sql/title-v2', owner, { sql: ' ' })
      if (result.status === 429) refused = result
      else expect(result.status).toBe(400)
    }
    expect(refused?.body.message).toMatch(/^Too many AI requests\. Try again in \d+ seconds\.$/)
    // Another user has their own allowance.
    expect((await api(t, 'POST', '/api/ai/sql/title-v2', readOnly, { sql: ' ' })).status).toBe(400)
  })
})

describe('without an AI provider', () => {
  let app: FastifyInstance
  let token: string

  beforeAll(async () => {
    // The same platform served by a second HTTP app whose config has AI off: no second boot.
    const ctx = t.platform.ctx
    app = await buildHttpApp({ ...ctx, config: { ...ctx.config, ai: null }, ai: new AiService(null) }, t.platform.app.log)
    token = await tokenFor(t, ADMIN_EMAIL)
  })
  afterAll(() => app?.close())

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload: payload as object } : {}) })

  it('says the key is not set, and refuses the model calls with that message', async () => {
    const check = await call('GET', '/api/ai/sql/check-api-key')
    expect(check.json()).toEqual({ hasKey: false, message: AI_KEY_NOT_SET_MESSAGE })
    const before = fake.requests.length
    const complete = await call('POST', '/api/ai/sql/complete-v2', completion())
    expect(complete.statusCode).toBe(400)
    expect(complete.json()).toEqual({ message: AI_KEY_NOT_SET_MESSAGE })
    const title = await call('POST', '/api/ai/sql/title-v2', { sql: 'select 1' })
    expect(title.statusCode).toBe(400)
    expect(title.json()).toEqual({ message: AI_KEY_NOT_SET_MESSAGE })
    expect(fake.requests).toHaveLength(before)
  })
})
