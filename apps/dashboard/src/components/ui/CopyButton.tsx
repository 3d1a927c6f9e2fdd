import { Check, Copy } from 'lucide-react'
import { Button, IconButton, type ButtonVariant } from './Button'
import { useCopyToClipboard } from './useCopyToClipboard'

interface CopyButtonProps {
  value: string
  /**
   * What is copied. The icon button is named 'Copy {what}'; the text button reads 'Copy' and
   * names it for assistive technology only ('Copy {what}', visually 'Copy').
   */
  what?: string
  /** 'icon' (default): a square icon button with the name as its tooltip. 'text': a button reading Copy. */
  appearance?: 'icon' | 'text'
  variant?: ButtonVariant
  size?: 'sm' | 'md'
  /** Why copying is unavailable right now: the button is then disabled and says why. */
  disabledReason?: string
}

/**
 * The one copy-to-clipboard control: after a copy it says 'Copied' for COPY_FEEDBACK_MS
 * (its name, its tooltip and its icon); a failure is told in a toast.
 */
export function CopyButton({ value, what, appearance = 'icon', variant, size = 'sm', disabledReason }: CopyButtonProps) {
  const { copied, copy } = useCopyToClipboard()
  const icon = copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />
  const onClick = () => void copy(value)

  if (appearance === 'text') {
    return (
      <Button size={size} variant={variant} icon={icon} disabled={Boolean(disabledReason)} disabledReason={disabledReason} onClick={onClick}>
        {copied ? 'Copied' : 'Copy'}
        {what ? <span className="visually-hidden"> {what}</span> : null}
      </Button>
    )
  }
  return (
    <IconButton
      size={size}
      variant={variant}
      label={copied ? 'Copied' : what ? `Copy ${what}` : 'Copy'}
      icon={icon}
      disabled={Boolean(disabledReason)}
      disabledReason={disabledReason}
      onClick={onClick}
    />
  )
}
