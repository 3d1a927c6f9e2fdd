import { RetryError } from 'ai'

/**
 * A failure of the model call, carrying the provider's own message (a bad key, an unknown model,
 * a server that refused the connection...): the routes answer it as a 502 with that message.
 */
export class AiProviderError extends Error {}

/**
 * What an error from the AI SDK says, for the user: the provider's message, never a stack. After
 * retries the SDK wraps it ("Failed after 2 attempts. Last error: ..."): the last error is the news.
 */
export function providerMessage(error: unknown): string {
  const cause = RetryError.isInstance(error) && error.lastError !== undefined ? error.lastError : error
  const message = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : ''
  return message.trim() || 'The AI provider failed without a message'
}
