import { useId, type ReactNode } from 'react'
import { CopyButton } from './CopyButton'
import './copy-field.css'

interface CopyFieldProps {
  label: string
  value: string
  hint?: ReactNode
  /** Monospace for commands, URIs, tokens and passwords. */
  mono?: boolean
  /** Extra controls after the copy button (e.g. reveal). */
  aside?: ReactNode
}

/** A read-only value with its label and a copy button; select-all on focus for manual copying. */
export function CopyField({ label, value, hint, mono = true, aside }: CopyFieldProps) {
  const id = useId()
  return (
    <div className="copy-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-field-row">
        <input
          id={id}
          className={['input', 'copy-field-input', mono ? 'mono' : null].filter(Boolean).join(' ')}
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        <CopyButton value={value} what={label.toLowerCase()} />
        {aside}
      </div>
      {hint ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
    </div>
  )
}
