import type { AiCompletionBody } from '@stratum/contracts'
import { streamText } from 'ai'
import { AiProviderError, providerMessage } from './errors.js'
import { createFenceStripper } from './fences.js'
import type { AiLanguageModel } from './model.js'

/**
 * How much of the editor text around the cursor is sent. The statement being edited is near the
 * cursor; the rest of a long script costs tokens and latency without helping much.
 */
export const CONTEXT_BEFORE_MAX_CHARS = 8_000
export const CONTEXT_AFTER_MAX_CHARS = 4_000
/** The model's answer replaces a selection or a statement: this is plenty and bounds a runaway model. */
export const COMPLETION_MAX_OUTPUT_TOKENS = 2_048

export const COMPLETION_SYSTEM_PROMPT = [
  'You are a Postgres SQL assistant editing code in a SQL editor.',
  'Answer ONLY with the SQL that replaces the selection, or that is inserted at the cursor when the selection is empty.',
  'No markdown code fences, no explanations, no text before or after the SQL. SQL comments are fine when the instruction asks for them.',
  "Keep the user's style: keyword case, indentation, quoting and naming.",
  'Write valid PostgreSQL. Use the tables, columns and functions of the database schema below; do not invent tables or columns.',
].join('\n')

export type CompletionMetadata = AiCompletionBody['completionMetadata']

export interface CompletionPrompt {
  system: string
  prompt: string
}

/** The system prompt (instructions and schema) and the user message (instruction and editor text). */
export function buildCompletionPrompt(metadata: CompletionMetadata, schemaContext: string | null): CompletionPrompt {
  const system = schemaContext
    ? `${COMPLETION_SYSTEM_PROMPT}\n\nDatabase schema:\n${schemaContext}`
    : `${COMPLETION_SYSTEM_PROMPT}\n\n(The database schema could not be read: rely on the SQL in the editor for names.)`
  const before = metadata.textBeforeCursor.slice(-CONTEXT_BEFORE_MAX_CHARS)
  const after = metadata.textAfterCursor.slice(0, CONTEXT_AFTER_MAX_CHARS)
  const selection = metadata.selection ?? ''
  const task = selection
    ? 'Rewrite the selected SQL following the instruction. Your answer replaces the selection.'
    : 'Write the SQL the instruction asks for. Your answer is inserted at the cursor.'
  const prompt = [
    `Instruction: ${metadata.prompt.trim()}`,
    task,
    `<text_before_cursor>\n${before}\n</text_before_cursor>`,
    selection ? `<selection>\n${selection}\n</selection>` : '<selection></selection>',
    `<text_after_cursor>\n${after}\n</text_after_cursor>`,
  ].join('\n\n')
  return { system, prompt }
}

/**
 * Streams the model's SQL, without markdown fences. A provider failure (before or during the text)
 * is thrown as an AiProviderError by the iterator; an abort ends the text quietly.
 */
export async function* streamCompletion(
  model: AiLanguageModel,
  metadata: CompletionMetadata,
  schemaContext: string | null,
  abortSignal?: AbortSignal,
): AsyncGenerator<string> {
  const { system, prompt } = buildCompletionPrompt(metadata, schemaContext)
  const result = streamText({
    model,
    system,
    prompt,
    abortSignal,
    temperature: 0,
    maxOutputTokens: COMPLETION_MAX_OUTPUT_TOKENS,
    // An inline edit is interactive: one retry on a rate limit or a 5xx, then the user hears of it.
    maxRetries: 1,
    // Errors are read from the stream below; the default handler would only log them to stderr.
    onError: () => {},
  })
  const fences = createFenceStripper()
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      const text = fences.push(part.text)
      if (text) yield text
    } else if (part.type === 'error') {
      throw new AiProviderError(providerMessage(part.error))
    } else if (part.type === 'abort') {
      return
    }
  }
  const rest = fences.flush()
  if (rest) yield rest
}
