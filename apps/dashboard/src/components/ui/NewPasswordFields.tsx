import { newPasswordProblem } from '@stratum/contracts'
import { TextField } from './Field'

export interface NewPasswordProblems {
  password?: string
  confirm?: string
}

/** What is wrong with a chosen password and its confirmation, by the platform's own rule (the rule NewPassword checks). */
export function newPasswordProblems(password: string, confirm: string): NewPasswordProblems {
  return {
    password: newPasswordProblem(password),
    confirm: confirm !== password ? 'The passwords do not match' : undefined,
  }
}

interface NewPasswordFieldsProps {
  /** The first field's label: 'Password' when it is the account's first, 'New password' when it replaces one. */
  label: string
  hint: string
  password: string
  confirm: string
  onPasswordChange: (value: string) => void
  onConfirmChange: (value: string) => void
  problems: NewPasswordProblems
  autoFocus?: boolean
}

/**
 * A new account password and its confirmation, marked for password managers as a new password (with the form's
 * username field, they file it under the right account).
 */
export function NewPasswordFields({ label, hint, password, confirm, onPasswordChange, onConfirmChange, problems, autoFocus }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        name="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        value={password}
        onChange={(event) => onPasswordChange(event.target.value)}
        error={problems.password}
        hint={hint}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(event) => onConfirmChange(event.target.value)}
        error={problems.confirm}
      />
    </>
  )
}
