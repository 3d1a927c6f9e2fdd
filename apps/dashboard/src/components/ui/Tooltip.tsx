import * as RadixTooltip from '@radix-ui/react-tooltip'
import { cloneElement, useId, useRef, useState, type FocusEvent, type ReactElement, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import './tooltip.css'

interface TooltipProps {
  content: ReactNode
  children: ReactElement<{ 'aria-describedby'?: string }>
  /**
   * Link the text to the control as its description (true for explanations such as a
   * missing permission; false when the text only repeats the control's own label).
   */
  describe?: boolean
}

/** Closes that Radix makes and this tooltip does not: see `keepsOpen`. */
const POINTER_ON_TRIGGER = new Set(['pointerdown', 'click'])

/**
 * Whether the event that makes Radix close the tooltip should leave it open instead:
 * - a scroll: Radix closes a tooltip when anything around its trigger scrolls; here it follows
 *   its trigger (Radix's popper repositions it on scroll) and hides while the trigger is clipped;
 * - a press or click on the trigger itself: the text stays while the pointer is on the control, so
 *   that a label that changes on click ('Copy host' -> 'Copied') is seen.
 * `window.event` is the event being dispatched when Radix calls back synchronously from its listener.
 */
function keepsOpen(trigger: HTMLElement | null): boolean {
  const cause = window.event
  if (!cause) return false
  if (cause.type === 'scroll') return true
  return POINTER_ON_TRIGGER.has(cause.type) && cause.target instanceof Node && Boolean(trigger?.contains(cause.target))
}

/**
 * A small text bubble shown on hover and keyboard focus, dismissed with Escape (Radix tooltip).
 * The bubble exists only while open (portal in the body, positioned against the trigger as it
 * scrolls). A described control keeps its description while closed: a hidden copy of the text under
 * the same id, in the body (not next to the control, where it would join the text around it).
 */
export function Tooltip({ content, children, describe = true }: TooltipProps) {
  const id = useId()
  const anchorRef = useRef<HTMLSpanElement>(null)
  const [open, setOpen] = useState(false)

  const onOpenChange = (next: boolean) => {
    if (!next && keepsOpen(anchorRef.current)) return
    setOpen(next)
  }

  // Keyboard focus shows the text; a mouse click, or focus put back by a closing menu after a
  // mouse click, does not (Radix opens on any focus that does not follow a press on the trigger).
  const onFocus = (event: FocusEvent) => {
    if (!(event.target instanceof Element && event.target.matches(':focus-visible'))) event.preventDefault()
  }

  return (
    <RadixTooltip.Provider delayDuration={0}>
      <RadixTooltip.Root open={open} onOpenChange={onOpenChange} disableHoverableContent>
        <RadixTooltip.Trigger asChild>
          {/* The span, not the control, is the trigger: its menu or dialog attributes stay its own. */}
          <span ref={anchorRef} className="tooltip-anchor" onFocus={onFocus}>
            {describe ? cloneElement(children, { 'aria-describedby': id }) : children}
          </span>
        </RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            id={describe ? id : undefined}
            className="tooltip"
            side="bottom"
            sideOffset={6}
            collisionPadding={8}
            hideWhenDetached
            // A press on the trigger is outside the bubble for Radix: it stays (see keepsOpen).
            onPointerDownOutside={(event) => {
              if (event.target instanceof Node && anchorRef.current?.contains(event.target)) event.preventDefault()
            }}
            // Inside a modal dialog Radix sets pointer-events: auto inline; the text never takes the pointer.
            style={{ pointerEvents: 'none' }}
          >
            {content}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
      {describe && !open ? createPortal(<span id={id} hidden>{content}</span>, document.body) : null}
    </RadixTooltip.Provider>
  )
}
