import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { Button, type ButtonVariant } from './Button'
import { Dialog } from './Dialog'
import { TextField } from './Field'
import './typed-confirmation.css'

/** The spec's wording when the typed text is not the required one. */
export const CONFIRM_MISMATCH = 'Value entered does not match.'

/**
 * The state of a "type X to confirm" field: the trimmed text must equal the required string.
 * The error shows after a submit (or after leaving a non-empty field) and then follows typing.
 */
export function useConfirmText(required: string) {
  const [value, setValue] = useState('')
  const [checked, setChecked] = useState(false)
  const matches = value.trim() === required
  return {
    value,
    setValue,
    matches,
    error: checked && !matches ? CONFIRM_MISMATCH : undefined,
    /** Marks the field as checked; true when it matches. */
    check: () => {
      setChecked(true)
      return matches
    },
    onBlur: () => {
      if (value) setChecked(true)
    },
  }
}

export type ConfirmTextState = ReturnType<typeof useConfirmText>

interface ConfirmTextFieldProps {
  required: string
  state: ConfirmTextState
  /** Defaults to 'Type {required} to confirm.' */
  label?: ReactNode
}

export function ConfirmTextField({ required, state, label }: ConfirmTextFieldProps) {
  return (
    <TextField
      label={
        label ?? (
          <>
            Type <strong className="confirm-required">{required}</strong> to confirm.
          </>
        )
      }
      value={state.value}
      onChange={(event) => state.setValue(event.target.value)}
      onBlur={state.onBlur}
      error={state.error}
      autoComplete="off"
      spellCheck={false}
      autoFocus
    />
  )
}

interface ConfirmFormProps {
  id: string
  required: string
  label?: ReactNode
  onConfirm: () => void
  children?: ReactNode
}

/** Lives inside the dialog's content, so its text starts empty each time the dialog opens. */
function ConfirmForm({ id, required, label, onConfirm, children }: ConfirmFormProps) {
  const state = useConfirmText(required)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (state.check()) onConfirm()
  }
  return (
    <form id={id} onSubmit={submit} noValidate className="stack">
      {children}
      <ConfirmTextField required={required} state={state} label={label} />
    </form>
  )
}

export interface TypedConfirmationDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  /** Shown above the field: consequences, warnings, a server error. */
  children?: ReactNode
  /** The exact text to type (compared after trimming). */
  confirmString: string
  /** Replaces the default 'Type {confirmString} to confirm.' label. */
  confirmLabel?: ReactNode
  /** The confirm button's text. */
  confirmButton: string
  variant?: Extract<ButtonVariant, 'primary' | 'danger'>
  loading?: boolean
  onConfirm: () => void
}

/**
 * A dialog that asks for a typed confirmation before an action that takes a project offline or
 * removes something: the action runs only once the typed text matches.
 */
export function TypedConfirmationDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmString,
  confirmLabel,
  confirmButton,
  variant = 'danger',
  loading = false,
  onConfirm,
}: TypedConfirmationDialogProps) {
  const formId = useId()
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (loading && !next ? undefined : onOpenChange(next))}
      title={title}
      description={description}
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={loading}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant={variant} loading={loading}>
            {confirmButton}
          </Button>
        </>
      }
    >
      <ConfirmForm id={formId} required={confirmString} label={confirmLabel} onConfirm={onConfirm}>
        {children}
      </ConfirmForm>
    </Dialog>
  )
}
