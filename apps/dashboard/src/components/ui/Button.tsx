import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from 'react'
import { Spinner } from './Spinner'
import { Tooltip } from './Tooltip'
import './button.css'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  size?: 'sm' | 'md'
  loading?: boolean
  icon?: ReactNode
  /**
   * Why the button is disabled (e.g. a missing permission). The button then stays focusable
   * (aria-disabled instead of disabled) so keyboard and pointer users can read the reason.
   */
  disabledReason?: string
  /** Called when the button is clicked while disabled with a reason (e.g. to say so in a toast). */
  onDisabledClick?: () => void
  ref?: Ref<HTMLButtonElement>
}

export function Button({
  variant = 'secondary',
  size = 'md',
  loading = false,
  icon,
  disabledReason,
  onDisabledClick,
  disabled,
  className,
  children,
  type = 'button',
  onClick,
  ...rest
}: ButtonProps) {
  const explained = Boolean(disabled && disabledReason)
  const classes = ['btn', `btn-${variant}`, `btn-${size}`, className].filter(Boolean).join(' ')

  const guardedClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (explained || loading) {
      event.preventDefault()
      if (explained) onDisabledClick?.()
      return
    }
    onClick?.(event)
  }

  const button = (
    <button
      {...rest}
      type={type}
      className={classes}
      disabled={explained ? undefined : disabled || loading}
      aria-disabled={explained || undefined}
      aria-busy={loading || undefined}
      onClick={guardedClick}
    >
      {loading ? <Spinner size={14} /> : icon}
      {children}
    </button>
  )

  return explained ? <Tooltip content={disabledReason}>{button}</Tooltip> : button
}

interface IconButtonProps extends Omit<ButtonProps, 'icon' | 'children'> {
  /** Accessible name, also shown as a tooltip unless `tooltip` says more. */
  label: string
  icon: ReactNode
  tooltip?: ReactNode
}

/**
 * A square button showing only an icon. Its label is the accessible name and the tooltip.
 * The name comes from visually hidden text rather than aria-label on purpose: label lookups
 * (getByLabel) then find only form fields, so 'Copy host' never collides with the 'Host' field.
 */
export function IconButton({ label, icon, tooltip, className, variant = 'ghost', disabledReason, ...rest }: IconButtonProps) {
  const button = (
    <Button
      {...rest}
      variant={variant}
      className={['btn-icon', className].filter(Boolean).join(' ')}
      icon={icon}
      disabledReason={disabledReason}
    >
      <span className="visually-hidden">{label}</span>
    </Button>
  )
  if (rest.disabled && disabledReason) return button
  return (
    <Tooltip content={tooltip ?? label} describe={false}>
      {button}
    </Tooltip>
  )
}
