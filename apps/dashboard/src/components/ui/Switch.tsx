import { Tooltip } from './Tooltip'
import './switch.css'

interface SwitchProps {
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  /** Accessible name (e.g. 'Enable pgcrypto'). */
  label: string
  disabled?: boolean
  /**
   * Why the switch cannot be used (a missing permission, a refused extension). It then stays
   * focusable (aria-disabled) so keyboard and pointer users can read the reason in a tooltip.
   */
  disabledReason?: string
  busy?: boolean
}

/** An on/off toggle: a button with role="switch", toggled with a click, Space or Enter. */
export function Switch({ checked, onCheckedChange, label, disabled = false, disabledReason, busy = false }: SwitchProps) {
  const explained = Boolean(disabled && disabledReason)
  const control = (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-busy={busy || undefined}
      aria-disabled={explained || undefined}
      disabled={explained ? undefined : disabled || busy}
      className="switch"
      onClick={() => {
        if (explained || disabled || busy) return
        onCheckedChange(!checked)
      }}
    >
      <span className="switch-thumb" aria-hidden="true" />
    </button>
  )
  return explained ? <Tooltip content={disabledReason}>{control}</Tooltip> : control
}
