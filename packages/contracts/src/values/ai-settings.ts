/**
 * The installation's AI provider settings: choices, limits and texts.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */
export const AI_SETTINGS_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const
export type AiSettingsProvider = (typeof AI_SETTINGS_PROVIDERS)[number]

export const AI_SETTINGS_PROVIDER_LABELS: Record<AiSettingsProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible (Ollama, vLLM, LM Studio...)',
}

export const AI_SETTINGS_LIMITS = { modelLength: 200, baseUrlLength: 2_048, apiKeyLength: 4_096 } as const

export const AI_SETTINGS_PATH = '/platform/installation/ai-settings'
export const AI_SETTINGS_TEST_PATH = '/platform/installation/ai-settings/test'

export const AI_SETTINGS_TEXTS = {
  manage: "Only the installation's owner can change the AI provider",
  notConfigured: 'No AI provider is configured: save one, or set STRATUM_AI_PROVIDER where the platform runs.',
} as const

/** Suggestions shown in the empty fields: the platform's own defaults for OpenAI and Anthropic, Ollama's usual address. */
export const AI_SETTINGS_PLACEHOLDERS: Record<AiSettingsProvider, { model: string; baseUrl: string }> = {
  openai: { model: 'gpt-4.1-mini', baseUrl: 'https://api.openai.com/v1' },
  anthropic: { model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com/v1' },
  'openai-compatible': { model: 'qwen2.5-coder:7b', baseUrl: 'http://localhost:11434/v1' },
}
