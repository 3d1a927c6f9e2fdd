import { ASSISTANT_QUERY_BLOCK_SCROLL_DELAY_MS, ASSISTANT_STICK_TO_BOTTOM_PX, ASSISTANT_THINKING, assistantCallingTool } from '@stratum/contracts'
import { getToolName, isToolUIPart } from 'ai'
import { RotateCcw, Sparkles, User } from 'lucide-react'
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { EdgeFunctionBlock } from './EdgeFunctionBlock'
import type { AssistantUIMessage } from './message-shape'
import { MessageMarkdown } from './MessageMarkdown'
import { QueryBlock } from './QueryBlock'

interface MessageListProps {
  projectRef: string
  messages: AssistantUIMessage[]
  streaming: boolean
  canSaveSnippets: boolean
  canDeploy: boolean
  /** Messages the chat was opened with: their query blocks wait for Run instead of running again. */
  history: ReadonlySet<string>
  /** The last question got no answer: why, and a way to ask it again. */
  failure: { message: string; onRetry: () => void } | null
}

/** Tool names with a call still under way (its input streaming, or called and not answered): each named once. */
export function callingTools(message: AssistantUIMessage | undefined): string[] {
  if (!message || message.role !== 'assistant') return []
  const names = new Set<string>()
  for (const part of message.parts) {
    if (isToolUIPart(part) && (part.state === 'input-streaming' || part.state === 'input-available')) names.add(getToolName(part))
  }
  return [...names]
}

/**
 * The conversation. While the reader is within ASSISTANT_STICK_TO_BOTTOM_PX of the bottom it follows
 * new text; once they scroll up it stays where they are. A query block scrolls into view after
 * ASSISTANT_QUERY_BLOCK_SCROLL_DELAY_MS, when its widget has taken its height.
 */
export function MessageList({ projectRef, messages, streaming, canSaveSnippets, canDeploy, history, failure }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null)
  const stuck = useRef(true)

  const toBottom = useCallback(() => {
    const element = scroller.current
    if (element && stuck.current) element.scrollTop = element.scrollHeight
  }, [])

  useLayoutEffect(toBottom, [messages, streaming, failure, toBottom])

  const timers = useRef(new Set<number>())
  useEffect(() => {
    const pending = timers.current
    return () => pending.forEach((timer) => window.clearTimeout(timer))
  }, [])
  const onBlockRendered = useCallback(() => {
    const timer = window.setTimeout(() => {
      timers.current.delete(timer)
      toBottom()
    }, ASSISTANT_QUERY_BLOCK_SCROLL_DELAY_MS)
    timers.current.add(timer)
  }, [toBottom])

  const last = messages[messages.length - 1]
  const calling = streaming ? callingTools(last) : []
  return (
    <div
      className="assistant-messages"
      ref={scroller}
      onScroll={(event) => {
        const element = event.currentTarget
        stuck.current = element.scrollHeight - element.scrollTop - element.clientHeight <= ASSISTANT_STICK_TO_BOTTOM_PX
      }}
      data-testid="assistant-messages"
    >
      {messages.map((message) => (
        <article key={message.id} className={`assistant-message assistant-message-${message.role}`} aria-label={message.role === 'user' ? 'You' : 'Assistant'}>
          <div className="assistant-avatar" aria-hidden="true">
            {message.role === 'user' ? <User size={14} /> : <Sparkles size={14} />}
          </div>
          <div className="assistant-message-body">
            {message.parts.map((part, index) => {
              if (part.type === 'text') return part.text ? <MessageMarkdown key={index} text={part.text} /> : null
              if (!isToolUIPart(part) || part.state === 'input-streaming') return null
              const name = getToolName(part)
              if (name === 'display_query')
                return (
                  <QueryBlock
                    key={part.toolCallId}
                    projectRef={projectRef}
                    toolCallId={part.toolCallId}
                    input={part.input}
                    canSave={canSaveSnippets}
                    fromHistory={history.has(message.id)}
                    onRendered={onBlockRendered}
                  />
                )
              if (name === 'display_edge_function') return <EdgeFunctionBlock key={part.toolCallId} projectRef={projectRef} input={part.input} canDeploy={canDeploy} />
              // Reading tools (list_tables, execute_sql...): what was used, not what came back.
              return (
                <p key={part.toolCallId} className="assistant-tool-used">
                  Used {name}
                </p>
              )
            })}
          </div>
        </article>
      ))}
      {failure ? (
        <div className="assistant-failure" role="alert">
          <p>{failure.message}</p>
          <Button size="sm" icon={<RotateCcw size={14} aria-hidden="true" />} onClick={failure.onRetry}>
            Retry
          </Button>
        </div>
      ) : null}
      {calling.map((name) => (
        <p key={name} className="assistant-status" role="status">
          <Spinner size={12} /> {assistantCallingTool(name)}
        </p>
      ))}
      {streaming && calling.length === 0 ? (
        <p className="assistant-status" role="status">
          <Spinner size={12} /> {ASSISTANT_THINKING}
        </p>
      ) : null}
    </div>
  )
}
