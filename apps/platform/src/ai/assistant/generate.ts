import { ASSISTANT_CONTEXT_MESSAGES, ASSISTANT_MAX_STEPS } from '@stratum/contracts'
import { convertToModelMessages, stepCountIs, streamText, type ToolSet, type UIMessage } from 'ai'
import type { AiLanguageModel } from '../model.js'

export interface AssistantTurn {
  model: AiLanguageModel
  /** The whole conversation as the panel holds it; only the latest messages reach the model. */
  messages: UIMessage[]
  system: string
  tools: ToolSet
  signal: AbortSignal
}

/** The messages the model sees: the latest few (the spec's five), so long chats cost no more per turn. */
export function recentMessages(messages: UIMessage[]): UIMessage[] {
  return messages.slice(-ASSISTANT_CONTEXT_MESSAGES)
}

/**
 * One assistant turn: the model answers, calling tools for at most ASSISTANT_MAX_STEPS steps (a
 * step is one model call; tool results feed the next). The caller streams the result to the panel.
 */
export async function streamAssistantTurn(turn: AssistantTurn) {
  const messages = await convertToModelMessages(recentMessages(turn.messages), { tools: turn.tools, ignoreIncompleteToolCalls: true })
  return streamText({
    model: turn.model,
    system: turn.system,
    messages,
    tools: turn.tools,
    stopWhen: stepCountIs(ASSISTANT_MAX_STEPS),
    abortSignal: turn.signal,
  })
}
