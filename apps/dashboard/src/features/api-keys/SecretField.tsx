import { Check, Copy, Eye, EyeOff, Lock } from 'lucide-react'
import { useEffect, useId, useState, type ReactNode } from 'react'
import { IconButton } from '../../components/ui/Button'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { copyText } from '../../lib/clipboard'

interface SecretFieldProps {
  label: ReactNode
  /** Accessible name of the value ('anon key', 'JWT secret'): 'Copy {what}', 'Reveal {what}'. */
  what: string
  /** Undefined when the user may not see it: `deniedText` shows instead. */
  value: string | undefined
  deniedText?: string
  /** Masked until revealed (secrets); public values show as they are. */
  secret?: boolean
  /** Why copy and reveal are unavailable right now (a JWT secret update that is not Updated). */
  lockedReason?: string
  hint?: ReactNode
  badges?: ReactNode
}

const MASK = '•'.repeat(40)

/** A key or secret with copy and (for secrets) reveal, both refused with a reason while locked. */
export function SecretField({ label, what, value, deniedText, secret = false, lockedReason, hint, badges }: SecretFieldProps) {
  const id = useId()
  const toast = useToast()
  const [revealed, setRevealed] = useState(false)
  const [copied, setCopied] = useState(false)
  const locked = Boolean(lockedReason)
  const shown = value !== undefined && !locked && (!secret || revealed)

  useEffect(() => {
    if (!copied) return
    const timer = window.setTimeout(() => setCopied(false), 2000)
    return () => window.clearTimeout(timer)
  }, [copied])

  const copy = async () => {
    if (value === undefined) return
    try {
      await copyText(value)
      setCopied(true)
    } catch (error) {
      toast.error('Could not copy to the clipboard', errorMessage(error))
    }
  }

  return (
    <div className="secret-field">
      <div className="secret-field-label">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        {badges}
      </div>
      {value === undefined ? (
        <p className="secret-denied muted" id={id}>
          <Lock size={14} aria-hidden="true" />
          {deniedText}
        </p>
      ) : (
        <div className="copy-field-row">
          <input
            id={id}
            className="input copy-field-input mono"
            value={shown ? value : MASK}
            readOnly
            aria-describedby={hint ? `${id}-hint` : undefined}
            data-revealed={shown || undefined}
          />
          {secret ? (
            <IconButton
              size="sm"
              label={shown ? `Hide ${what}` : `Reveal ${what}`}
              icon={shown ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
              disabled={locked}
              disabledReason={lockedReason}
              onClick={() => setRevealed((now) => !now)}
            />
          ) : null}
          <IconButton
            size="sm"
            label={copied ? 'Copied' : `Copy ${what}`}
            icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
            disabled={locked}
            disabledReason={lockedReason}
            onClick={copy}
          />
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
