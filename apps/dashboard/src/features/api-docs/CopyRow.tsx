import { useId, type ReactNode } from 'react'
import { CopyButton } from '../../components/ui/CopyButton'

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
          <CopyButton appearance="text" value={value} what={label} />
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
