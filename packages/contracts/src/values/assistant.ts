/**
 * Texts, limits and names of the AI assistant (the right panel; the API docs and assistant spec:
 * assistant panel, entities, states, validation, error catalogue, constants). Plain values only, no zod:
 * the dashboard imports these without the schemas.
 */

/** What an organization lets the assistant see of its projects, from least to most. */
export const AI_OPT_IN_LEVELS = ['disabled', 'schema', 'schema_and_log', 'schema_and_log_and_data'] as const
export type AiOptInLevelName = (typeof AI_OPT_IN_LEVELS)[number]

/** How each level is described where owners choose it. */
export const AI_OPT_IN_LEVEL_LABELS: Record<AiOptInLevelName, string> = {
  disabled: 'Disabled: no project metadata is sent to the assistant',
  schema: 'Schema only: schemas, tables, columns, keys, functions, policies, extensions',
  schema_and_log: 'Schema and logs: also the project’s recent logs',
  schema_and_log_and_data: 'Schema, logs and data: also read-only queries on the project’s rows',
}

/** The model sees this many of the latest messages, and makes at most this many steps per turn. */
export const ASSISTANT_CONTEXT_MESSAGES = 5
export const ASSISTANT_MAX_STEPS = 5
/** Read-only SQL run by the assistant returns at most this many rows. */
export const ASSISTANT_SQL_ROW_LIMIT = 100

/** The chat list in the popover scrolls only above this many chats. */
export const ASSISTANT_CHAT_LIST_SCROLL_ABOVE = 4
/** The message list keeps following new text while the reader is within this many pixels of the bottom. */
export const ASSISTANT_STICK_TO_BOTTOM_PX = 10
/** Markdown waits this long for a query block to render before scrolling to it. */
export const ASSISTANT_QUERY_BLOCK_SCROLL_DELAY_MS = 500

export const ASSISTANT_CHAT_NAME_MAX = 100
export const ASSISTANT_DEFAULT_CHAT_NAME = 'Untitled'
export const ASSISTANT_MESSAGES_MAX = 200
export const ASSISTANT_MESSAGE_TEXT_MAX = 100_000
export const ASSISTANT_PROMPT_MAX = 20_000

/** Tools the model calls so that the panel renders something: a query block and an edge function block. */
export const ASSISTANT_RENDER_TOOLS = ['display_query', 'display_edge_function'] as const

export const ASSISTANT_DISABLED_NOTICE = 'Assistant has been temporarily disabled'
export const ASSISTANT_UNKNOWN_ERROR = 'An unknown error occurred'
/** Under a stored chat's last question when it has no answer (its turn failed before the chat was opened again). */
export const ASSISTANT_UNANSWERED = 'This question was not answered.'
export const ASSISTANT_CRASH_TITLE = 'Something went wrong with the AI Assistant'
export const ASSISTANT_CRASH_DESCRIPTION = "We've been notified and will review and fix this issue"
export const ASSISTANT_CRASH_RETRY = 'Try again'
export const ASSISTANT_CRASH_RESET = 'Clear messages and refresh'
export const assistantCallingTool = (tool: string) => `Calling ${tool}...`
export const ASSISTANT_THINKING = 'Thinking'

/** Links in assistant messages: only these schemes (or relative links); others are plain text. */
export const ASSISTANT_LINK_SCHEMES = ['http', 'https', 'ircs', 'irc', 'mailto', 'xmpp'] as const
export const VERIFY_LINK_TITLE = 'Verify the link before navigating'

/** Why an opt-in level change is refused (the spec's rule: permission, flag, a different value). */
export const AI_OPT_IN_FLAG_OFF = 'Choosing the assistant opt-in level is turned off on this Stratum installation'
export const aiOptInUnchanged = (level: string) => `The assistant opt-in level is already ${level}`
