import { AI_FAILED_COMPLETION, aiFailedToGenerate, type AiCompletionBody } from '@stratum/contracts'
import { routeUrl } from '../request'

export const AI_COMPLETION_PATH = routeUrl('POST /api/ai/sql/complete-v2')

/** A failed inline completion; `message` is the text to show as is (the SQL editor spec's error catalogue). */
export class AiCompletionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AiCompletionError'
  }
}

export interface StreamCompletionOptions {
  signal?: AbortSignal
  /** Called with the whole text received so far, each time more arrives. */
  onText?: (text: string) => void
}

const isAbort = (error: unknown, signal?: AbortSignal) =>
  signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError')

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error))

async function failureOf(response: Response): Promise<AiCompletionError> {
  const payload: unknown = await response.json().catch(() => undefined)
  const message =
    payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string' && payload.message.trim()
      ? payload.message
      : undefined
  return new AiCompletionError(message ? aiFailedToGenerate(message) : AI_FAILED_COMPLETION)
}

/**
 * POST /api/ai/sql/complete-v2 (the inline edit, Cmd/Ctrl+K): the answer is a text/plain stream
 * of the SQL that replaces the selection. Resolves with the whole text; rejects with an
 * AiCompletionError carrying the text to show, or with the AbortError when `signal` aborted it.
 */
export async function streamSqlCompletion(body: AiCompletionBody, { signal, onText }: StreamCompletionOptions = {}): Promise<string> {
  let response: Response
  try {
    response = await fetch(AI_COMPLETION_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'text/plain, application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    if (isAbort(error, signal)) throw error
    throw new AiCompletionError(aiFailedToGenerate(messageOf(error)))
  }
  if (!response.ok) throw await failureOf(response)

  if (!response.body) {
    const text = await response.text()
    onText?.(text)
    return text
  }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const chunk = decoder.decode(value, { stream: true })
      if (chunk) {
        text += chunk
        onText?.(text)
      }
    }
  } catch (error) {
    if (isAbort(error, signal)) throw signal?.reason instanceof DOMException ? signal.reason : new DOMException('The completion was stopped', 'AbortError')
    throw new AiCompletionError(aiFailedToGenerate(messageOf(error)))
  }
  const rest = decoder.decode()
  if (rest) {
    text += rest
    onText?.(text)
  }
  return text
}

export const isAbortError = (error: unknown) => error instanceof DOMException && error.name === 'AbortError'
