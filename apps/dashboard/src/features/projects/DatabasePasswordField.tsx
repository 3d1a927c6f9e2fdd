import { passwordStrength } from '@stratum/contracts'
import { Eye, EyeOff, WandSparkles } from 'lucide-react'
import { useId, useState } from 'react'
import { Button, IconButton } from '../../components/ui/Button'
import { CopyButton } from '../../components/ui/CopyButton'
import { TextField } from '../../components/ui/Field'
import { generatePassword } from './generatePassword'

interface DatabasePasswordFieldProps {
  value: string
  onChange: (value: string) => void
  error?: string
  /** Replaces the default hint (the New project form's). */
  hint?: string
}

/** Password input with a strength meter (contracts' passwordStrength) and a generator. */
export function DatabasePasswordField({ value, onChange, error, hint }: DatabasePasswordFieldProps) {
  const [visible, setVisible] = useState(false)
  const strengthId = useId()
  const strength = passwordStrength(value)

  const generate = () => {
    onChange(generatePassword())
    // A generated password is only useful if the user can see and keep it.
    setVisible(true)
  }

  return (
    <div className="stack-sm">
      <TextField
        label="Database password"
        type={visible ? 'text' : 'password'}
        name="db_pass"
        autoComplete="new-password"
        spellCheck={false}
        className="mono"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error}
        aria-describedby={strengthId}
        hint={hint ?? 'At least 8 characters. Keep it safe: Stratum never shows it again (owners and administrators can reset it).'}
        labelAside={
          <Button size="sm" variant="ghost" icon={<WandSparkles size={14} aria-hidden="true" />} onClick={generate}>
            Generate a password
          </Button>
        }
        trailing={
          <div className="row password-actions">
            {value ? <CopyButton value={value} what="password" /> : null}
            <IconButton
              size="sm"
              label={visible ? 'Hide password' : 'Show password'}
              icon={visible ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
              onClick={() => setVisible((shown) => !shown)}
            />
          </div>
        }
      />
      <div className="strength" id={strengthId} aria-live="polite" data-score={value ? strength.score : undefined}>
        <div className="strength-bar" aria-hidden="true">
          {[1, 2, 3, 4].map((step) => (
            <span key={step} className={value && strength.score >= step ? 'on' : undefined} />
          ))}
        </div>
        <span className="strength-label" data-testid="password-strength">
          {value ? `Password strength: ${strength.label}` : 'Password strength: enter a password'}
        </span>
      </div>
    </div>
  )
}
