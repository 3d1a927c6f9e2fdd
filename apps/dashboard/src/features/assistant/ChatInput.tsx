import { ArrowUp, Square } from 'lucide-react'
import { useState, type KeyboardEvent } from 'react'
import { IconButton } from '../../components/ui/Button'

interface ChatInputProps {
  disabled: boolean
  loading: boolean
  /** Shown above the input: no provider key, or the assistant turned off. */
  notices: string[]
  onSubmit: (text: string) => void
  onStop: () => void
}

/** Enter submits, Shift+Enter makes a new line; disabled without a provider, when turned off, or while a reply loads. */
export function ChatInput({ disabled, loading, notices, onSubmit, onStop }: ChatInputProps) {
  const [text, setText] = useState('')
  const blocked = disabled || loading
  const submit = () => {
    if (blocked || !text.trim()) return
    onSubmit(text.trim())
    setText('')
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }
  return (
    <div className="assistant-input-area">
      {notices.map((notice) => (
        <p key={notice} className="assistant-notice" role="note">
          {notice}
        </p>
      ))}
      <div className="assistant-input">
        <textarea
          aria-label="Message the AI assistant"
          placeholder={blocked && !loading ? 'The assistant is not available' : 'Ask about this project…'}
          rows={2}
          value={text}
          disabled={blocked}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {loading ? (
          <IconButton size="sm" variant="secondary" label="Stop" icon={<Square size={14} aria-hidden="true" />} onClick={onStop} />
        ) : (
          <IconButton size="sm" variant="primary" label="Send" icon={<ArrowUp size={14} aria-hidden="true" />} disabled={blocked || !text.trim()} onClick={submit} />
        )}
      </div>
    </div>
  )
}
