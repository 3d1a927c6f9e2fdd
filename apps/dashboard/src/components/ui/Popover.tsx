import * as RadixPopover from '@radix-ui/react-popover'
import type { ComponentProps } from 'react'
import './popover.css'

/**
 * A panel opened by a button (Radix popover, non-modal): focus moves to its first field when it
 * opens and back to the button when it closes; Escape, a click outside or focus leaving it close it.
 */
export const Popover = RadixPopover.Root
export const PopoverTrigger = RadixPopover.Trigger
export const PopoverClose = RadixPopover.Close

interface PopoverContentProps extends ComponentProps<typeof RadixPopover.Content> {
  /**
   * Render in a portal in the body, for triggers inside containers that clip. Left out, the panel
   * stays next to its trigger in the page (it is still positioned against the trigger and follows it
   * on scroll), so that it belongs to the same region for assistive technology and tests.
   */
  portal?: boolean
}

export function PopoverContent({ portal = false, className, align = 'end', sideOffset = 4, children, ...rest }: PopoverContentProps) {
  const content = (
    <RadixPopover.Content
      className={['popover', className].filter(Boolean).join(' ')}
      align={align}
      sideOffset={sideOffset}
      collisionPadding={8}
      {...rest}
    >
      {children}
    </RadixPopover.Content>
  )
  return portal ? <RadixPopover.Portal>{content}</RadixPopover.Portal> : content
}
