import { Check, Copy } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import { Button } from '../../components/ui/Button'
import { useCopied } from './useCopied'

interface CopyRowProps {
  label: string
  value: string | undefined
  /** Masked in the field (the copy button still copies the value). */
  masked?: boolean
  deniedText?: string
  hint?: ReactNode
}

/** A labelled value with a Copy button whose text turns to 'Copied' for 2 s. */
export function CopyRow({ label, value, masked = false, deniedText, hint }: CopyRowProps) {
  const id = useId()
  const { copied, copy } = useCopied()
  return (
    <div className="docs-copy-row">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {value === undefined ? (
        <p className="docs-denied muted" id={id}>
          {deniedText}
        </p>
      ) : (
        <div className="copy-field-row">
          <input
            id={id}
            className="input copy-field-input mono"
            value={masked ? '•'.repeat(40) : value}
            readOnly
            aria-describedby={hint ? `${id}-hint` : undefined}
          />
          <Button
            size="sm"
            icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
            onClick={() => void copy(value)}
          >
            {copied ? 'Copied' : 'Copy'}
            <span className="visually-hidden"> {label}</span>
          </Button>
        </div>
      )}
      {hint ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
    </div>
  )
}
