import { z } from 'zod'
import { AI_PROMPT_MAX_LENGTH, AI_SQL_MAX_LENGTH } from './values/ai.js'
export * from './values/ai.js'

/**
 * The SQL editor's AI calls (the SQL editor spec's AI calls, errors and limits; the API docs and
 * assistant spec's calls):
 * - `GET /api/ai/sql/check-api-key` says whether a provider is configured;
 * - `POST /api/ai/sql/complete-v2` (alias `/complete`) streams SQL for the inline edit (Cmd+K);
 * - `POST /api/ai/sql/title-v2` (alias `/title`) names a snippet from its SQL.
 * The provider (OpenAI, Anthropic or an OpenAI-compatible endpoint such as Ollama) is chosen by
 * environment variables on the platform; the browser never sees a provider key.
 */

/** Answer of the key check. `message` is shown as the notice when `hasKey` is false. */
export const AiKeyCheckResponse = z.object({ hasKey: z.boolean(), message: z.string() })
export type AiKeyCheckResponse = z.infer<typeof AiKeyCheckResponse>

const ProjectRef = z.string({ error: 'projectRef is required' }).regex(/^[a-z]{20}$/, 'projectRef must be a project reference')
const Text = (name: string) =>
  z.string({ error: `${name} must be a string` }).max(AI_SQL_MAX_LENGTH, `${name} must be at most ${AI_SQL_MAX_LENGTH} characters`)

/**
 * The inline edit request, in the spec's completionMetadata shape. `selection` is the text the
 * user selected (empty when the cursor had no selection); the model answers with SQL that replaces
 * it, or that is inserted at the cursor when it is empty.
 */
export const AiCompletionBody = z.strictObject({
  projectRef: ProjectRef,
  completionMetadata: z.strictObject({
    textBeforeCursor: Text('textBeforeCursor'),
    textAfterCursor: Text('textAfterCursor'),
    language: z.literal('pgsql', { error: "language must be 'pgsql'" }).default('pgsql'),
    prompt: z
      .string({ error: 'prompt is required' })
      .max(AI_PROMPT_MAX_LENGTH, `prompt must be at most ${AI_PROMPT_MAX_LENGTH} characters`)
      .refine((text) => text.trim().length > 0, 'prompt cannot be empty'),
    selection: Text('selection').default(''),
  }),
})
export type AiCompletionBody = z.infer<typeof AiCompletionBody>

export const AiTitleBody = z.strictObject({
  sql: Text('sql').refine((text) => text.trim().length > 0, 'sql cannot be empty'),
  /** When given, the caller must be able to read the project (its schema is not sent to the model). */
  projectRef: ProjectRef.optional(),
})
export type AiTitleBody = z.infer<typeof AiTitleBody>

export const AiTitleResponse = z.object({ title: z.string(), description: z.string() })
export type AiTitleResponse = z.infer<typeof AiTitleResponse>

