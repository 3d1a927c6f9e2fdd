import { AI_KEY_NOT_SET_MESSAGE, AI_KEY_SET_MESSAGE, AI_SETTINGS_TEXTS, AiSettingsTestResponse, AiSettingsView } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../support/openai-compatible-server.mjs'
import { api, login, memberWithRole, startTestPlatform, type Caller, type TestPlatform } from './harness.js'

/**
 * The installation's AI provider page: the owner saves, tests and resets; the key never comes back;
 * the environment (here: no provider at all) is the default; every AI route sees a change at once.
 */
const PATH = '/platform/installation/ai-settings'
let model: OpenAiCompatibleServer
let t: TestPlatform
let owner: Caller
let orgOwner: Caller

const compatible = (overrides: Record<string, unknown> = {}) => ({
  provider: 'openai-compatible',
  model: 'loopback-model',
  base_url: model.url,
  api_key: 'sk-loopback-secret',
  ...overrides,
})

beforeAll(async () => {
  model = await startOpenAiCompatibleServer({ apiKey: 'sk-loopback-secret', reply: () => 'OK' })
  t = await startTestPlatform()
  owner = { cookie: await login(t) }
  const orgSlug = (await api(t, 'GET', '/platform/organizations', owner)).body[0].slug
  // An owner of the organization, yet not the installation's owner (its first account).
  orgOwner = { token: (await memberWithRole(t, orgSlug, 'owner')).token }
})
afterAll(async () => {
  await t?.cleanup()
  await model?.close()
})

describe('AI provider settings', () => {
  it('start from the environment: here none, so AI is off', async () => {
    const view = await api(t, 'GET', PATH, owner)
    expect(view.status).toBe(200)
    expect(AiSettingsView.parse(view.body)).toEqual({ source: 'none', settings: null, environment: null, updated_at: null })
    const test = await api(t, 'POST', `${PATH}/test`, owner)
    expect(test.status).toBe(400)
    expect(test.body).toEqual({ message: AI_SETTINGS_TEXTS.notConfigured })
  })

  it("are the installation owner's alone: others get 403 and change nothing", async () => {
    for (const [method, body] of [['GET'], ['PUT', compatible()], ['DELETE'], ['POST']] as const) {
      const result = await api(t, method, method === 'POST' ? `${PATH}/test` : PATH, orgOwner, body)
      expect(result.status, method).toBe(403)
      expect(result.body).toEqual({ message: AI_SETTINGS_TEXTS.manage })
    }
    expect((await api(t, 'GET', PATH)).status).toBe(401)
    expect((await t.platform.ctx.db.query('SELECT count(*)::int AS n FROM ai_settings')).rows[0].n).toBe(0)
  })

  it('refuse bad input with a 400 and a message', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [compatible({ provider: 'gemini' }), /^provider must be one of openai, anthropic, openai-compatible$/],
      [compatible({ base_url: null }), /^base_url is required for an openai-compatible provider/],
      [compatible({ base_url: '' }), /^base_url is required for an openai-compatible provider/],
      [compatible({ base_url: 'file:///etc/passwd' }), /^base_url must be an http\(s\) URL$/],
      [compatible({ base_url: 'not a url' }), /^base_url must be an http\(s\) URL$/],
      [compatible({ base_url: `http://example.com/${'a'.repeat(2048)}` }), /^base_url must be at most 2048 characters$/],
      [compatible({ model: 'm'.repeat(201) }), /^model must be at most 200 characters$/],
      [compatible({ model: '   ' }), /^model is required$/],
      [compatible({ api_key: 'k'.repeat(4097) }), /^api_key must be at most 4096 characters$/],
      [compatible({ api_key: 42 }), /api_key/],
      [compatible({ temperature: 2 }), /temperature/],
      [{ provider: 'openai', model: 'gpt-4.1-mini' }, /^api_key is required for openai$/],
    ]
    for (const [body, message] of cases) {
      const result = await api(t, 'PUT', PATH, owner, body)
      expect(result.status, JSON.stringify(body).slice(0, 100)).toBe(400)
      expect(result.body.message).toMatch(message)
    }
    expect((await api(t, 'GET', PATH, owner)).body.source).toBe('none')
  })

  it('save, then answer without the key; every AI route sees them at once; Test calls the model for real', async () => {
    const saved = await api(t, 'PUT', PATH, owner, compatible())
    expect(saved.status).toBe(200)
    const view = AiSettingsView.parse(saved.body)
    expect(view).toMatchObject({ source: 'saved', environment: null })
    expect(view.settings).toEqual({ provider: 'openai-compatible', model: 'loopback-model', base_url: model.url, has_key: true })
    expect(JSON.stringify(view)).not.toContain('sk-loopback-secret')
    expect(JSON.stringify((await api(t, 'GET', PATH, owner)).body)).not.toContain('sk-loopback-secret')
    // Sealed at rest: a dump of the platform database does not reveal it.
    const { rows } = await t.platform.ctx.db.query('SELECT api_key_sealed FROM ai_settings')
    expect(rows[0].api_key_sealed).toMatch(/^v1:/)
    expect(rows[0].api_key_sealed).not.toContain('sk-loopback-secret')

    expect((await api(t, 'GET', '/api/ai/sql/check-api-key', owner)).body).toEqual({ hasKey: true, message: AI_KEY_SET_MESSAGE })

    const before = model.requests.length
    const test = await api(t, 'POST', `${PATH}/test`, owner)
    expect(test.status).toBe(200)
    expect(AiSettingsTestResponse.parse(test.body)).toEqual({ ok: true, message: 'The model answered: OK', provider: 'openai-compatible', model: 'loopback-model' })
    expect(model.requests).toHaveLength(before + 1)
    expect(model.requests.at(-1).model).toBe('loopback-model')
    expect(model.requests.at(-1).authorization).toBe('Bearer sk-loopback-secret')
  })

  it("keep the key when a save leaves it out; Test shows the provider's own refusal", async () => {
    const kept = await api(t, 'PUT', PATH, owner, { provider: 'openai-compatible', model: 'other-model', base_url: model.url })
    expect(kept.body.settings).toEqual({ provider: 'openai-compatible', model: 'other-model', base_url: model.url, has_key: true })
    expect((await api(t, 'POST', `${PATH}/test`, owner)).body).toMatchObject({ ok: true, model: 'other-model' })

    await api(t, 'PUT', PATH, owner, compatible({ api_key: 'sk-wrong' }))
    const refused = await api(t, 'POST', `${PATH}/test`, owner)
    expect(refused.status).toBe(200)
    expect(refused.body).toEqual({ ok: false, message: 'Incorrect API key provided.', provider: 'openai-compatible', model: 'loopback-model' })

    // No key at all (as for Ollama): no Authorization header, and the loopback says so.
    const keyless = await api(t, 'PUT', PATH, owner, compatible({ api_key: null }))
    expect(keyless.body.settings.has_key).toBe(false)
    expect((await api(t, 'POST', `${PATH}/test`, owner)).body.message).toMatch(/^You didn't provide an API key/)
    expect(model.requests.at(-1).authorization).toBeNull()
  })

  it('reset to the environment defaults: the saved row goes, AI is off again here', async () => {
    const reset = await api(t, 'DELETE', PATH, owner)
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ source: 'none', settings: null, environment: null, updated_at: null })
    expect((await api(t, 'GET', '/api/ai/sql/check-api-key', owner)).body).toEqual({ hasKey: false, message: AI_KEY_NOT_SET_MESSAGE })
  })

  it('survive a restart: saved settings are loaded at boot', async () => {
    await api(t, 'PUT', PATH, owner, compatible())
    await t.platform.close()
    await t.restart()
    owner = { cookie: await login(t) }
    expect((await api(t, 'GET', PATH, owner)).body).toMatchObject({ source: 'saved', settings: { model: 'loopback-model', has_key: true } })
    expect((await api(t, 'POST', `${PATH}/test`, owner)).body).toMatchObject({ ok: true })
  })
})

describe('AI provider settings over an environment provider', () => {
  let envPlatform: TestPlatform
  let envOwner: Caller
  beforeAll(async () => {
    envPlatform = await startTestPlatform({
      STRATUM_AI_PROVIDER: 'openai-compatible',
      STRATUM_AI_BASE_URL: model.url,
      STRATUM_AI_MODEL: 'env-model',
      STRATUM_AI_API_KEY: 'sk-loopback-secret',
    })
    envOwner = { cookie: await login(envPlatform) }
  })
  afterAll(() => envPlatform?.cleanup())

  it('override the environment while saved, and give it back on reset', async () => {
    const environment = { provider: 'openai-compatible', model: 'env-model', base_url: model.url, has_key: true }
    expect((await api(envPlatform, 'GET', PATH, envOwner)).body).toEqual({ source: 'environment', settings: environment, environment, updated_at: null })
    expect((await api(envPlatform, 'POST', `${PATH}/test`, envOwner)).body).toMatchObject({ ok: true, model: 'env-model' })

    const saved = await api(envPlatform, 'PUT', PATH, envOwner, compatible({ model: 'saved-model' }))
    expect(saved.body).toMatchObject({ source: 'saved', settings: { model: 'saved-model' }, environment })
    expect(saved.body.updated_at).toEqual(expect.any(String))
    expect((await api(envPlatform, 'POST', `${PATH}/test`, envOwner)).body).toMatchObject({ ok: true, model: 'saved-model' })
    expect(model.requests.at(-1).model).toBe('saved-model')

    const reset = await api(envPlatform, 'DELETE', PATH, envOwner)
    expect(reset.body).toEqual({ source: 'environment', settings: environment, environment, updated_at: null })
    await api(envPlatform, 'POST', `${PATH}/test`, envOwner)
    expect(model.requests.at(-1).model).toBe('env-model')
  })
})
