import { ASSISTANT_MESSAGES_MAX, type ChatMessage, type ChatMessagePart } from '@stratum/contracts'
import { isToolUIPart, getToolName, type UIMessage } from 'ai'

/**
 * The panel holds the AI SDK's UI messages (useChat); chats are stored in the spec's message shape
 * (id, role, content, parts of text or tool invocations with toolCallId, toolName, args, state,
 * createdAt). These two functions translate between them.
 */

export interface AssistantMetadata {
  createdAt?: string
}
export type AssistantUIMessage = UIMessage<AssistantMetadata>

type ToolState = Extract<ChatMessagePart, { type: 'tool-invocation' }>['state']

/** The SDK's tool states in the spec's three: still streaming its input, called, answered. */
function storedState(state: string): ToolState {
  if (state === 'input-streaming') return 'partial-call'
  if (state === 'output-available' || state === 'output-error' || state === 'output-denied') return 'result'
  return 'call'
}

function uiState(state: ToolState): 'input-streaming' | 'input-available' | 'output-available' {
  if (state === 'partial-call') return 'input-streaming'
  if (state === 'result') return 'output-available'
  return 'input-available'
}

export function toStoredMessage(message: AssistantUIMessage): ChatMessage {
  const parts: ChatMessagePart[] = []
  for (const part of message.parts) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text })
    else if (isToolUIPart(part)) {
      parts.push({
        type: 'tool-invocation',
        toolCallId: part.toolCallId,
        toolName: getToolName(part),
        args: part.input ?? {},
        state: storedState(part.state),
        ...(part.state === 'output-available' ? { result: part.output } : {}),
      })
    }
    // Step markers, reasoning and sources are not kept: the panel does not show them.
  }
  const content = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
  return {
    id: message.id,
    role: message.role === 'user' ? 'user' : 'assistant',
    content,
    parts,
    createdAt: message.metadata?.createdAt ?? new Date().toISOString(),
  }
}

export function toUIMessage(message: ChatMessage): AssistantUIMessage {
  const parts: AssistantUIMessage['parts'] = message.parts.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text, state: 'done' }
    const state = uiState(part.state)
    const base = { type: `tool-${part.toolName}` as const, toolCallId: part.toolCallId, input: part.args }
    if (state === 'output-available') return { ...base, state, output: part.result ?? null }
    return { ...base, state } as AssistantUIMessage['parts'][number]
  })
  return { id: message.id, role: message.role, metadata: { createdAt: message.createdAt }, parts }
}

/** Whether a message has anything to show: text, or a tool call past its streaming input (a failed turn's reply has neither). */
export function hasContent(message: AssistantUIMessage): boolean {
  return message.parts.some((part) => (part.type === 'text' ? part.text.trim() !== '' : isToolUIPart(part) && part.state !== 'input-streaming'))
}

/** A turn that failed leaves an empty reply behind: it is neither shown nor stored (the question stays, with a Retry). */
export function withoutEmptyReply(messages: AssistantUIMessage[]): AssistantUIMessage[] {
  const last = messages.at(-1)
  return last && last.role === 'assistant' && !hasContent(last) ? messages.slice(0, -1) : messages
}

/** What is saved after a turn: the latest messages that fit in a stored chat. */
export const toStoredChat = (messages: AssistantUIMessage[]) => messages.slice(-ASSISTANT_MESSAGES_MAX).map(toStoredMessage)
