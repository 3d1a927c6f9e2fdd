import type { ReactNode } from 'react'
import './checkbox.css'

interface CheckboxProps {
  label: ReactNode
  /** A line under the label saying what the choice does. */
  hint?: ReactNode
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  disabled?: boolean
}

/** A native checkbox with its label (the whole row is clickable) and an optional hint. */
export function Checkbox({ label, hint, checked, onCheckedChange, disabled = false }: CheckboxProps) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onCheckedChange(event.target.checked)} disabled={disabled} />
      <span>
        {label}
        {hint ? <span className="field-hint checkbox-hint">{hint}</span> : null}
      </span>
    </label>
  )
}
