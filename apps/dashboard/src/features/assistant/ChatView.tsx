import { useChat } from '@ai-sdk/react'
import { ASSISTANT_CONTEXT_MESSAGES, ASSISTANT_UNANSWERED, ASSISTANT_UNKNOWN_ERROR, type Chat } from '@stratum/contracts'
import { DefaultChatTransport } from 'ai'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useToast } from '../../components/ui/Toast'
import { useTableCompletions } from '../../data/sql/useTableCompletions'
import { ChatInput } from './ChatInput'
import { toUIMessage, withoutEmptyReply, type AssistantUIMessage } from './message-shape'
import { MessageList } from './MessageList'
import { suggestionsFor } from './suggestions'

export const GENERATE_PATH = '/api/ai/sql/generate-v4'

/** What travels with each question besides the messages (read at send time). */
export interface TurnContext {
  snippet: { id: string; name: string; sql: string } | null
}

interface ChatViewProps {
  projectRef: string
  /** The stored chat; null while none exists yet (the first question creates it). */
  chat: Chat | null
  /** A question to send as soon as this chat is shown: the first one, asked before the chat existed. */
  initialQuestion?: string
  inputDisabled: boolean
  notices: string[]
  canSaveSnippets: boolean
  canDeploy: boolean
  turnContext: () => TurnContext
  onAskWithoutChat: (question: string) => void
  onTurnDone: (messages: AssistantUIMessage[]) => void
}

/** The server answers errors as {message}; the SDK hands over the body's text. */
export function assistantErrorText(error: Error | undefined): string {
  const text = error?.message?.trim()
  if (!text) return ASSISTANT_UNKNOWN_ERROR
  try {
    const parsed = JSON.parse(text) as { message?: unknown }
    if (typeof parsed.message === 'string' && parsed.message.trim()) return parsed.message
  } catch {
    // Not JSON: the text itself (a stream error is already the provider's message).
  }
  return text
}

/** One chat: its messages, the reply streaming in, the suggestions when empty, and the input. */
export function ChatView(props: ChatViewProps) {
  const { projectRef, chat, initialQuestion, turnContext, onTurnDone } = props
  const toast = useToast()
  const tables = useTableCompletions(projectRef)
  // Converted here, inside the crash boundary: a stored chat that cannot be shown ends in the fallback.
  const initial = useMemo(() => (chat ? chat.messages.map(toUIMessage) : []), [chat])
  const [history] = useState(() => new Set(initial.map((message) => message.id)))
  // useChat keeps the callbacks it was created with: this one always calls the latest.
  const done = useRef(onTurnDone)
  useEffect(() => {
    done.current = onTurnDone
  })

  const transport = useMemo(
    () =>
      new DefaultChatTransport<AssistantUIMessage>({
        api: GENERATE_PATH,
        credentials: 'same-origin',
        // `body` is what each send adds (the open snippet); the model sees the last five messages, so nothing older travels.
        prepareSendMessagesRequest: ({ messages, body }) => ({
          body: { ...body, messages: messages.slice(-ASSISTANT_CONTEXT_MESSAGES), projectRef },
        }),
      }),
    [projectRef],
  )

  const { messages, sendMessage, regenerate, status, stop, error } = useChat<AssistantUIMessage>({
    id: chat?.id,
    messages: initial,
    transport,
    onError: (error) => toast.error(assistantErrorText(error)),
    onFinish: ({ messages: all, isError }) => done.current(isError ? withoutEmptyReply(all) : all),
  })

  const loading = status === 'submitted' || status === 'streaming'
  const send = useCallback(
    (text: string) => {
      const snippet = turnContext().snippet
      void sendMessage({ text, metadata: { createdAt: new Date().toISOString() } }, { body: snippet ? { snippet } : {} })
    },
    [sendMessage, turnContext],
  )
  const ask = (text: string) => (chat ? send(text) : props.onAskWithoutChat(text))
  // The question asked again: the failed reply (if any) is dropped and the same question sent, with today's context.
  const retry = useCallback(() => {
    const snippet = turnContext().snippet
    void regenerate({ body: snippet ? { snippet } : {} })
  }, [regenerate, turnContext])
  const shown = useMemo(() => (loading ? messages : withoutEmptyReply(messages)), [loading, messages])
  // A turn that failed now, or a stored chat whose last question has no answer (the failure was before a reload).
  const failure =
    loading || shown.length === 0
      ? null
      : error
        ? assistantErrorText(error)
        : shown.at(-1)?.role === 'user'
          ? ASSISTANT_UNANSWERED
          : null

  const asked = useRef(false)
  useEffect(() => {
    if (!initialQuestion || asked.current || !chat) return
    asked.current = true
    send(initialQuestion)
  }, [initialQuestion, chat, send])

  return (
    <>
      {messages.length === 0 && !loading ? (
        <div className="assistant-empty">
          <p className="assistant-empty-title">How can I help with this project?</p>
          <p className="muted">Ask about your schema, SQL, policies or edge functions. Queries run only when you choose to.</p>
          <div className="assistant-suggestions">
            {suggestionsFor(tables.data).map((suggestion) => (
              <button key={suggestion.label} type="button" className="assistant-suggestion" disabled={props.inputDisabled} onClick={() => ask(suggestion.prompt)}>
                {suggestion.label}
              </button>
            ))}
          </div>
        </div>
      ) : (
        <MessageList
          projectRef={projectRef}
          messages={shown}
          streaming={loading}
          canSaveSnippets={props.canSaveSnippets}
          canDeploy={props.canDeploy}
          history={history}
          failure={failure && !props.inputDisabled ? { message: failure, onRetry: retry } : null}
        />
      )}
      <ChatInput disabled={props.inputDisabled} loading={loading} notices={props.notices} onSubmit={ask} onStop={() => void stop()} />
    </>
  )
}
