import { z } from 'zod'
import { AI_SETTINGS_LIMITS, AI_SETTINGS_PROVIDERS } from './values/ai-settings.js'
export * from './values/ai-settings.js'

/**
 * The installation's AI provider (`/platform/installation/ai-settings`, installation owner only):
 * the settings saved in the platform database override the STRATUM_AI_* environment, which stays
 * the default; DELETE removes the saved settings. The API key goes in and never comes back.
 */
export const AiSettingsProvider = z.enum(AI_SETTINGS_PROVIDERS, { error: `provider must be one of ${AI_SETTINGS_PROVIDERS.join(', ')}` })
export type AiSettingsProvider = z.infer<typeof AiSettingsProvider>

const HTTP_URL = z.url({ protocol: /^https?$/ })

/** An http(s) URL; empty means none (the provider's own endpoint). One schema, not a union: its messages stay specific. */
const BaseUrl = z
  .string({ error: 'base_url must be a string or null' })
  .trim()
  .max(AI_SETTINGS_LIMITS.baseUrlLength, `base_url must be at most ${AI_SETTINGS_LIMITS.baseUrlLength} characters`)
  .refine((text) => text === '' || HTTP_URL.safeParse(text).success, 'base_url must be an http(s) URL')
  .transform((text) => text || null)

/**
 * PUT body. `api_key`: a string sets it, null removes it, absent keeps the saved key (only while the
 * provider stays the same: a key is never sent to another provider than the one it was saved for).
 * An empty `base_url` means the provider's own endpoint.
 */
export const SaveAiSettingsBody = z
  .strictObject({
    provider: AiSettingsProvider,
    model: z
      .string({ error: 'model is required' })
      .trim()
      .min(1, 'model is required')
      .max(AI_SETTINGS_LIMITS.modelLength, `model must be at most ${AI_SETTINGS_LIMITS.modelLength} characters`),
    base_url: BaseUrl.nullable().default(null),
    api_key: z
      .string({ error: 'api_key must be a string or null' })
      .trim()
      .min(1, 'api_key cannot be empty: send null to remove the key')
      .max(AI_SETTINGS_LIMITS.apiKeyLength, `api_key must be at most ${AI_SETTINGS_LIMITS.apiKeyLength} characters`)
      .nullable()
      .optional(),
  })
  .refine((body) => body.provider !== 'openai-compatible' || body.base_url !== null, {
    message: 'base_url is required for an openai-compatible provider (e.g. http://localhost:11434/v1 for Ollama)',
    path: ['base_url'],
  })
/** What the dashboard sends. */
export type SaveAiSettingsBody = z.input<typeof SaveAiSettingsBody>
/** What the server works with once the body is validated (base_url null when empty). */
export type SaveAiSettings = z.output<typeof SaveAiSettingsBody>

/** Provider settings as answered: never the key, only whether one is set. */
export const AiProviderSettingsView = z.object({
  provider: AiSettingsProvider,
  model: z.string(),
  base_url: z.string().nullable(),
  has_key: z.boolean(),
})
export type AiProviderSettingsView = z.infer<typeof AiProviderSettingsView>

/** GET (and the answer of PUT and DELETE): what is in force, where it comes from, and the environment's defaults. */
export const AiSettingsView = z.object({
  /** 'saved': the database's settings; 'environment': STRATUM_AI_*; 'none': AI is off. */
  source: z.enum(['saved', 'environment', 'none']),
  /** The settings in force; null when AI is off. */
  settings: AiProviderSettingsView.nullable(),
  /** What applies once the saved settings are removed. */
  environment: AiProviderSettingsView.nullable(),
  updated_at: z.string().nullable(),
})
export type AiSettingsView = z.infer<typeof AiSettingsView>

/** POST .../test: one tiny real call to the model in force; `message` is the provider's own on failure. */
export const AiSettingsTestResponse = z.object({
  ok: z.boolean(),
  message: z.string(),
  provider: AiSettingsProvider,
  model: z.string(),
})
export type AiSettingsTestResponse = z.infer<typeof AiSettingsTestResponse>
