import { Eye, EyeOff, Lock } from 'lucide-react'
import { useId, useState, type ReactNode } from 'react'
import { IconButton } from '../../components/ui/Button'
import { CopyButton } from '../../components/ui/CopyButton'

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
  const [revealed, setRevealed] = useState(false)
  const locked = Boolean(lockedReason)
  const shown = value !== undefined && !locked && (!secret || revealed)

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
          <CopyButton value={value} what={what} disabledReason={lockedReason} />
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
