import { APICallError, RetryError } from 'ai'

/**
 * A failure of the model call, carrying the provider's own message (a bad key, an unknown model,
 * a server that refused the connection...): the routes answer it as a 502 with that message.
 */
export class AiProviderError extends Error {}

/** Network failures by their code, in plain words. */
const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'its host name was not found',
  EAI_AGAIN: 'its host name could not be looked up',
  EHOSTUNREACH: 'its host cannot be reached',
  ENETUNREACH: 'its network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
  EPIPE: 'the connection was closed',
}

/** The first network error code in an error's cause chain. */
function networkCode(error: unknown): string | undefined {
  const seen = new Set<unknown>()
  for (let current = error; current instanceof Error && !seen.has(current); current = (current as Error).cause) {
    seen.add(current)
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && code in CONNECTION_FAILURES) return code
  }
  return undefined
}

/**
 * A provider that could not be reached ("Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9" from the SDK), said
 * plainly with the address the platform tried: the base URL is the usual culprit. Null for any other failure.
 */
function unreachableProvider(error: unknown): string | null {
  if (!APICallError.isInstance(error) || !error.message.startsWith('Cannot connect to API')) return null
  let where = error.url
  try {
    where = new URL(error.url).origin
  } catch {
    // Not a URL: shown as the SDK had it.
  }
  const code = networkCode(error)
  return `The AI provider at ${where} did not answer${code ? `: ${CONNECTION_FAILURES[code]}` : ''}. Check the provider's base URL in the AI settings.`
}

/**
 * What an error from the AI SDK says, for the user: the provider's message, never a stack. After
 * retries the SDK wraps it ("Failed after 2 attempts. Last error: ..."): the last error is the news.
 */
export function providerMessage(error: unknown): string {
  const cause = RetryError.isInstance(error) && error.lastError !== undefined ? error.lastError : error
  const unreachable = unreachableProvider(cause)
  if (unreachable) return unreachable
  const message = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : ''
  return message.trim() || 'The AI provider failed without a message'
}
