import { describe, expect, it } from 'vitest'
import { loadAiSettings, loadConfig } from '../../src/config.js'

describe('AI settings from the environment', () => {
  it('turns AI off when no provider and no provider key is set', () => {
    expect(loadAiSettings({})).toBeNull()
    expect(loadAiSettings({ STRATUM_AI_PROVIDER: '  ', STRATUM_AI_MODEL: 'x' })).toBeNull()
    expect(loadConfig({ PORT: '0' }).ai).toBeNull()
  })

  it("falls back to the providers' usual key variables, OpenAI first", () => {
    expect(loadAiSettings({ OPENAI_API_KEY: 'sk-1' })).toEqual({ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-1', baseUrl: null })
    expect(loadAiSettings({ ANTHROPIC_API_KEY: 'ant-1' })).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'ant-1', baseUrl: null })
    expect(loadAiSettings({ OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'ant-1' })?.provider).toBe('openai')
    // An explicit provider picks its own fallback key.
    expect(loadAiSettings({ STRATUM_AI_PROVIDER: 'anthropic', OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'ant-1' })?.apiKey).toBe('ant-1')
  })

  it('lets STRATUM_AI_* override the key, the model and the endpoint', () => {
    expect(
      loadAiSettings({
        STRATUM_AI_PROVIDER: 'OpenAI',
        STRATUM_AI_API_KEY: 'sk-own',
        OPENAI_API_KEY: 'sk-other',
        STRATUM_AI_MODEL: 'gpt-4.1',
        STRATUM_AI_BASE_URL: 'https://proxy.example.com/v1',
      }),
    ).toEqual({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-own', baseUrl: 'https://proxy.example.com/v1' })
  })

  it('needs a base URL and a model for openai-compatible, but no key (Ollama)', () => {
    expect(
      loadAiSettings({ STRATUM_AI_PROVIDER: 'openai-compatible', STRATUM_AI_BASE_URL: 'http://localhost:11434/v1', STRATUM_AI_MODEL: 'qwen2.5-coder:7b' }),
    ).toEqual({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', apiKey: null, baseUrl: 'http://localhost:11434/v1' })
    expect(() => loadAiSettings({ STRATUM_AI_PROVIDER: 'openai-compatible', STRATUM_AI_MODEL: 'm' })).toThrow(/STRATUM_AI_BASE_URL is required/)
    expect(() => loadAiSettings({ STRATUM_AI_PROVIDER: 'openai-compatible', STRATUM_AI_BASE_URL: 'http://localhost:11434/v1' })).toThrow(
      /STRATUM_AI_MODEL is required/,
    )
  })

  it('refuses mistakes at boot with the variable to fix', () => {
    expect(() => loadConfig({ STRATUM_AI_PROVIDER: 'gemini' })).toThrow(/STRATUM_AI_PROVIDER must be one of openai, anthropic, openai-compatible/)
    expect(() => loadAiSettings({ STRATUM_AI_PROVIDER: 'anthropic' })).toThrow(/STRATUM_AI_API_KEY or ANTHROPIC_API_KEY/)
    expect(() => loadAiSettings({ STRATUM_AI_PROVIDER: 'openai', OPENAI_API_KEY: 'k', STRATUM_AI_BASE_URL: 'localhost:11434' })).toThrow(
      /STRATUM_AI_BASE_URL must be an http\(s\) URL/,
    )
  })

  it('reads the AI rate limit', () => {
    expect(loadConfig({}).aiRateLimitPerMinute).toBe(30)
    expect(loadConfig({ STRATUM_AI_RATE_LIMIT: '0' }).aiRateLimitPerMinute).toBe(0)
  })
})
