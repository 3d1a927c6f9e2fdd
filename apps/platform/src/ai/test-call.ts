import { generateText } from 'ai'
import { providerMessage } from './errors.js'
import type { AiLanguageModel } from './model.js'

/** Long enough for a cold local model to load; a settings page must not hang forever on a dead host. */
const TEST_TIMEOUT_MS = 60_000

/**
 * The settings page's "Test": one tiny real call to the model, so the owner sees at once whether the
 * provider, model, URL and key work together. No retries: the provider's first refusal is the answer.
 */
export async function testModel(model: AiLanguageModel, signal?: AbortSignal): Promise<{ ok: boolean; message: string }> {
  try {
    const { text } = await generateText({
      model,
      prompt: 'Reply with the single word OK.',
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TEST_TIMEOUT_MS)]) : AbortSignal.timeout(TEST_TIMEOUT_MS),
    })
    const reply = text.replace(/\s+/g, ' ').trim().slice(0, 80)
    return { ok: true, message: reply ? `The model answered: ${reply}` : 'The model answered (with no text).' }
  } catch (error) {
    return { ok: false, message: providerMessage(error) }
  }
}
