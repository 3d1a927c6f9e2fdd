import { CornerDownLeft, Sparkles, Square, X } from 'lucide-react'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { AI_PROMPT_MAX_LENGTH, type AiKeyCheckResponse } from '@stratum/contracts'
import { Button } from '../../../components/ui/Button'
import { Spinner } from '../../../components/ui/Spinner'
import type { Monaco } from '../monaco'
import { usePromptZone } from './usePromptZone'

type Editor = ReturnType<Monaco['editor']['create']>

export interface KeyCheck {
  data?: AiKeyCheckResponse
  error?: string
  loading: boolean
}

interface InlinePromptProps {
  editor: Editor
  line: number
  initialPrompt: string
  hasSelection: boolean
  generating: boolean
  error: string | null
  keyCheck: KeyCheck
  onSubmit: (prompt: string) => void
  onStop: () => void
  onClose: () => void
}

/**
 * The inline AI prompt box (Cmd/Ctrl+K), above the selected lines: Enter sends, Escape closes.
 * Without a configured provider it shows the platform's notice instead of an input.
 */
export function InlinePrompt({ editor, line, initialPrompt, hasSelection, generating, error, keyCheck, onSubmit, onStop, onClose }: InlinePromptProps) {
  const box = useRef<HTMLDivElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const placement = usePromptZone(editor, line, box)
  const [prompt, setPrompt] = useState(initialPrompt)
  const ready = keyCheck.data?.hasKey === true

  // The focus moves in once the box is placed (a hidden element cannot take it).
  const placed = placement !== null
  useEffect(() => {
    if (!placed) return
    if (ready && !generating) input.current?.focus()
    else if (!ready) box.current?.focus()
  }, [placed, ready, generating])

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      onClose()
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      // Cmd/Ctrl+K again: the box is open already (and the browser's own shortcut stays out).
      event.preventDefault()
      input.current?.focus()
    } else if (event.key === 'Enter' && event.target === input.current && !event.nativeEvent.isComposing) {
      event.preventDefault()
      if (prompt.trim() && !generating) onSubmit(prompt.trim())
    }
  }

  let body
  if (keyCheck.loading) {
    body = (
      <div className="ai-prompt-status" role="status">
        <Spinner size={14} /> Checking the AI provider…
      </div>
    )
  } else if (!ready) {
    body = (
      <p className="ai-prompt-notice" role="status">
        {keyCheck.data?.message ?? keyCheck.error ?? 'The AI provider could not be reached.'}
      </p>
    )
  } else {
    body = (
      <input
        ref={input}
        className="ai-prompt-input"
        aria-label="Prompt for AI"
        placeholder={hasSelection ? 'Ask AI to change the selected SQL…' : 'Ask AI to write SQL here…'}
        value={prompt}
        maxLength={AI_PROMPT_MAX_LENGTH}
        readOnly={generating}
        onChange={(event) => setPrompt(event.target.value)}
      />
    )
  }

  return (
    <div
      ref={box}
      className="ai-prompt"
      role="dialog"
      aria-label="Edit with AI"
      tabIndex={-1}
      data-testid="ai-prompt"
      onKeyDown={onKeyDown}
      style={placement ? { top: placement.top, left: placement.left, width: placement.width } : { visibility: 'hidden' }}
    >
      <div className="ai-prompt-row">
        <Sparkles className="ai-prompt-icon" size={15} aria-hidden="true" />
        {body}
        {generating ? (
          <>
            <span className="ai-prompt-status" role="status">
              <Spinner size={14} /> Generating…
            </span>
            <Button size="sm" variant="ghost" icon={<Square size={12} aria-hidden="true" />} onClick={onStop}>
              Stop
            </Button>
          </>
        ) : ready ? (
          <Button
            size="sm"
            variant="ghost"
            className="ai-prompt-send"
            icon={<CornerDownLeft size={13} aria-hidden="true" />}
            disabled={!prompt.trim()}
            onClick={() => onSubmit(prompt.trim())}
            title="Generate (Enter)"
          >
            Generate
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" className="btn-icon" icon={<X size={14} aria-hidden="true" />} onClick={onClose} title="Close (Escape)" aria-keyshortcuts="Escape">
          <span className="visually-hidden">Close</span>
        </Button>
      </div>
      {error ? (
        <p className="ai-prompt-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
