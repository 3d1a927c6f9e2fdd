import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { AiSettings } from '../config.js'

/** A model object (never a gateway model id string): a provider's model, or a test's MockLanguageModelV3. */
export type AiLanguageModel = Exclude<LanguageModel, string>

/** Builds the model from the settings; tests swap it for one returning a MockLanguageModelV3. */
export type AiModelFactory = (settings: AiSettings) => AiLanguageModel

/**
 * The AI SDK model for the configured provider. Keys and URLs are always passed explicitly:
 * the providers would otherwise read process.env themselves, and config.ts is the only reader.
 */
export const createLanguageModel: AiModelFactory = (settings) => {
  const apiKey = settings.apiKey ?? undefined
  const baseURL = settings.baseUrl ?? undefined
  switch (settings.provider) {
    case 'openai':
      // The Chat Completions API rather than the SDK's default (Responses): it is the one that
      // proxies and gateways placed in front of OpenAI through STRATUM_AI_BASE_URL also speak.
      return createOpenAI({ apiKey, baseURL }).chat(settings.model)
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL }).languageModel(settings.model)
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        // Required by config.ts for this provider.
        baseURL: settings.baseUrl!,
        // Ollama and most local servers need no key: no Authorization header then.
        apiKey,
        includeUsage: true,
      }).chatModel(settings.model)
  }
}

/**
 * The platform's view of AI: whether a provider is configured, and its model. Routes ask this
 * instead of the config so that tests can inject a scripted model (MockLanguageModelV3).
 *
 * One instance serves every AI route (PlatformContext.ai): the environment's settings are the
 * defaults, and settings saved from the dashboard (ai/settings-store.ts) override them through
 * `override()`, which every route sees at its next call.
 */
export class AiService {
  private cached: AiLanguageModel | null = null
  private saved: AiSettings | null = null

  constructor(
    /** From STRATUM_AI_* (config.ts); null = no provider in the environment. */
    readonly defaults: AiSettings | null,
    private readonly options: { model?: AiLanguageModel; factory?: AiModelFactory } = {},
  ) {}

  /** The settings in force: the saved ones, else the environment's; null = AI off. */
  get settings(): AiSettings | null {
    return this.saved ?? this.defaults
  }

  /** Whether saved settings are in force rather than the environment's. */
  get overridden(): boolean {
    return this.saved !== null
  }

  /** Replaces the saved settings (null: back to the environment's). Calls under way keep the model they took. */
  override(saved: AiSettings | null): void {
    this.saved = saved
    this.cached = null
  }

  /** True when the features can be used: a provider is configured, or a model was injected. */
  get enabled(): boolean {
    return this.settings !== null || this.options.model !== undefined
  }

  /** The model to call; null when AI is off. Built once per settings: providers keep no connection state. */
  model(): AiLanguageModel | null {
    if (this.options.model) return this.options.model
    const settings = this.settings
    if (!settings) return null
    this.cached ??= (this.options.factory ?? createLanguageModel)(settings)
    return this.cached
  }
}
