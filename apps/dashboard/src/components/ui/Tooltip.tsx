import {
  cloneElement,
  useCallback,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from 'react'
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

const GAP = 6
const MARGIN = 8

/**
 * A small text bubble shown on hover and keyboard focus, dismissed with Escape. Rendered in
 * a portal with fixed positioning so scrolling containers never clip it.
 */
export function Tooltip({ content, children, describe = true }: TooltipProps) {
  const id = useId()
  const anchorRef = useRef<HTMLSpanElement>(null)
  const bubbleRef = useRef<HTMLDivElement>(null)
  const [open, setOpen] = useState(false)
  const show = useCallback(() => setOpen(true), [])
  const hide = useCallback(() => setOpen(false), [])

  useLayoutEffect(() => {
    const anchor = anchorRef.current
    const bubble = bubbleRef.current
    if (!open || !anchor || !bubble) return
    const target = anchor.getBoundingClientRect()
    const { width, height } = bubble.getBoundingClientRect()
    let top = target.bottom + GAP
    if (top + height > window.innerHeight - MARGIN) top = target.top - GAP - height
    const centered = target.left + target.width / 2 - width / 2
    const left = Math.min(Math.max(MARGIN, centered), window.innerWidth - width - MARGIN)
    bubble.style.top = `${Math.max(MARGIN, top)}px`
    bubble.style.left = `${left}px`
  }, [open, content])

  // Keyboard focus shows the text; a mouse click focusing the control should not leave it up.
  const onFocus = (event: FocusEvent) => {
    if (event.target instanceof Element && event.target.matches(':focus-visible')) show()
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) hide()
  }

  return (
    <span
      ref={anchorRef}
      className="tooltip-anchor"
      onPointerEnter={show}
      onPointerLeave={hide}
      onFocus={onFocus}
      onBlur={hide}
      onKeyDown={onKeyDown}
    >
      {describe ? cloneElement(children, { 'aria-describedby': id }) : children}
      {createPortal(
        <div ref={bubbleRef} id={id} role="tooltip" className="tooltip" data-open={open || undefined} hidden={!open}>
          {content}
        </div>,
        document.body,
      )}
    </span>
  )
}
