import { z } from 'zod'
import {
  AI_OPT_IN_LEVELS, ASSISTANT_CHAT_NAME_MAX, ASSISTANT_MESSAGE_TEXT_MAX, ASSISTANT_MESSAGES_MAX, ASSISTANT_PROMPT_MAX,
} from './values/assistant.js'
export * from './values/assistant.js'

/**
 * The AI assistant's calls (the API docs and assistant spec, assistant panel and its calls):
 * - `GET /platform/projects/{ref}/assistant`: what the assistant may see of this project;
 * - chats per user and project: `GET/POST /platform/projects/{ref}/assistant/chats`,
 *   `GET/PATCH/DELETE .../chats/{id}`;
 * - `POST /api/ai/sql/generate-v4` (alias generate-v3): the reply, streamed as the AI SDK's UI message stream.
 */

export const AiOptInLevel = z.enum(AI_OPT_IN_LEVELS, { error: `The opt-in level must be one of ${AI_OPT_IN_LEVELS.join(', ')}` })
export type AiOptInLevel = z.infer<typeof AiOptInLevel>

/** GET /platform/projects/{ref}/assistant */
export const AssistantProjectContext = z.object({
  opt_in_level: AiOptInLevel,
  is_hipaa: z.boolean(),
  /** False when the level is disabled or the project is HIPAA: no schema, logs or rows reach the model. */
  sends_metadata: z.boolean(),
  /** The installation turned the assistant off for now ("Assistant has been temporarily disabled"). */
  disabled: z.boolean(),
})
export type AssistantProjectContext = z.infer<typeof AssistantProjectContext>

/** PATCH /platform/projects/{ref}/assistant: the project's HIPAA setting (projects.update). */
export const UpdateAssistantProjectBody = z.strictObject({ is_hipaa: z.boolean({ error: 'is_hipaa must be true or false' }) })

export const ChatName = z
  .string({ error: 'The chat name must be text' })
  .max(ASSISTANT_CHAT_NAME_MAX, `The chat name must be at most ${ASSISTANT_CHAT_NAME_MAX} characters`)
  .transform((name) => name.trim())
  .refine((name) => name.length > 0, 'The chat name cannot be empty')

/** One part of a stored message: text, or a tool invocation with its arguments and state. */
export const ChatMessagePart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(ASSISTANT_MESSAGE_TEXT_MAX) }),
  z.object({
    type: z.literal('tool-invocation'),
    toolCallId: z.string().min(1).max(200),
    toolName: z.string().min(1).max(100),
    args: z.unknown(),
    state: z.enum(['partial-call', 'call', 'result']),
    result: z.unknown().optional(),
  }),
])
export type ChatMessagePart = z.infer<typeof ChatMessagePart>

/** A stored message, in the spec's shape. */
export const ChatMessage = z.object({
  id: z.string().min(1).max(200),
  role: z.enum(['user', 'assistant']),
  content: z.string().max(ASSISTANT_MESSAGE_TEXT_MAX),
  parts: z.array(ChatMessagePart).max(200),
  createdAt: z.string().max(40),
})
export type ChatMessage = z.infer<typeof ChatMessage>

export const ChatSummary = z.object({ id: z.string(), name: z.string(), message_count: z.number(), created_at: z.string(), updated_at: z.string() })
export type ChatSummary = z.infer<typeof ChatSummary>

export const Chat = ChatSummary.extend({ messages: z.array(ChatMessage) })
export type Chat = z.infer<typeof Chat>

export const ChatParams = z.object({
  ref: z.string().regex(/^[a-z]{20}$/, 'The project reference is not valid'),
  id: z.uuid({ error: 'The chat id must be a UUID' }),
})

export const CreateChatBody = z.strictObject({ name: ChatName.optional() })
export type CreateChatBody = z.infer<typeof CreateChatBody>

/** Rename, replace the messages (after a turn, or [] to clear them), or both. */
export const UpdateChatBody = z
  .strictObject({
    name: ChatName.optional(),
    messages: z.array(ChatMessage).max(ASSISTANT_MESSAGES_MAX, `A chat keeps at most ${ASSISTANT_MESSAGES_MAX} messages`).optional(),
  })
  .refine((body) => body.name !== undefined || body.messages !== undefined, 'Give a name or messages to change')
export type UpdateChatBody = z.infer<typeof UpdateChatBody>

/** The snippet open in the SQL editor, sent as context with the question. */
export const AssistantSnippetContext = z.object({
  id: z.string().max(200).optional(),
  name: z.string().max(ASSISTANT_CHAT_NAME_MAX * 2),
  sql: z.string().max(ASSISTANT_PROMPT_MAX),
})

/**
 * POST /api/ai/sql/generate-v4. `messages` are the AI SDK's UI messages (validated by the SDK on the
 * server); the fields after it are the spec's. The opt-in level the server applies is always the
 * organization's: a level sent here can only lower it.
 */
export const GenerateAssistantBody = z.object({
  messages: z.array(z.unknown(), { error: 'messages must be a list' }).min(1, 'messages cannot be empty').max(ASSISTANT_MESSAGES_MAX),
  projectRef: z.string({ error: 'projectRef is required' }).regex(/^[a-z]{20}$/, 'projectRef must be a project reference'),
  aiOptInLevel: AiOptInLevel.optional(),
  includeSchemaMetadata: z.boolean().optional(),
  connectionString: z.string().max(2000).optional(),
  schema: z.string().max(200).optional(),
  table: z.string().max(200).optional(),
  snippet: AssistantSnippetContext.optional(),
})
export type GenerateAssistantBody = z.infer<typeof GenerateAssistantBody>

/** Arguments of display_query: the query block the panel renders (and runs only when runQuery). */
export const DisplayQueryArgs = z.object({
  label: z.string().describe('A short title for the query block'),
  sql: z.string().describe('The SQL to show; the user runs it'),
  view: z.enum(['table', 'chart']).optional().describe("'chart' to draw the result, with xAxis and yAxis naming result columns"),
  xAxis: z.string().optional(),
  yAxis: z.string().optional(),
  runQuery: z.boolean().optional().describe('True to run a read-only query at once; writes always wait for the user'),
  manualToolCallId: z.string().optional(),
})
export type DisplayQueryArgs = z.infer<typeof DisplayQueryArgs>

/** Arguments of display_edge_function: the function block with its Deploy action. */
export const DisplayEdgeFunctionArgs = z.object({
  name: z.string().describe('The function slug, lowercase letters, digits, - and _'),
  code: z.string().describe('The TypeScript source of index.ts, using Deno.serve'),
})
export type DisplayEdgeFunctionArgs = z.infer<typeof DisplayEdgeFunctionArgs>
