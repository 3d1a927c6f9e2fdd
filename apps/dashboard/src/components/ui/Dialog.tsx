import * as RadixDialog from '@radix-ui/react-dialog'
import { X } from 'lucide-react'
import { useEffect, useRef, type ReactNode } from 'react'
import './dialog.css'

interface DialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  children?: ReactNode
  /** Buttons at the bottom right. */
  footer?: ReactNode
  size?: 'sm' | 'md'
  /** Keep the dialog open on outside click (e.g. while a secret is shown once). */
  dismissOnOutsideClick?: boolean
}

/**
 * The element focused last outside any dialog. Our dialogs open from state rather than from a
 * Radix Trigger, so Radix cannot return focus by itself; and a field with autoFocus inside the
 * dialog takes focus before any open callback runs, so the opener is tracked here instead.
 */
let lastFocusedOutside: HTMLElement | null = null
document.addEventListener('focusin', (event) => {
  if (event.target instanceof HTMLElement && !event.target.closest('[role="dialog"]')) lastFocusedOutside = event.target
})

/**
 * A modal dialog: focus is trapped inside, Escape and the close button dismiss it, and
 * focus returns to the control that opened it.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  dismissOnOutsideClick = true,
}: DialogProps) {
  const opener = useRef<HTMLElement | null>(null)
  useEffect(() => {
    if (open) opener.current = lastFocusedOutside
  }, [open])
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog dialog-${size}`}
          // Radix warns when no description is wired; undefined says "none on purpose".
          {...(description ? {} : { 'aria-describedby': undefined })}
          onPointerDownOutside={(event) => {
            if (!dismissOnOutsideClick) event.preventDefault()
          }}
          onCloseAutoFocus={(event) => {
            const target = opener.current
            if (target?.isConnected) {
              event.preventDefault()
              target.focus()
            }
          }}
        >
          <div className="dialog-header">
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="btn btn-ghost btn-icon btn-sm" aria-label="Close dialog">
              <X size={16} aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          {description ? (
            <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
          ) : null}
          {children ? <div className="dialog-body">{children}</div> : null}
          {footer ? <div className="dialog-footer">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  )
}

/** For a side sheet (the small-screen project menu): same focus trap and Escape handling. */
export const DialogPrimitive = RadixDialog
