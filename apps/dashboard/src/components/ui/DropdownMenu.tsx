import * as Menu from '@radix-ui/react-dropdown-menu'
import { Check } from 'lucide-react'
import { useRef, useState, type ComponentProps, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react'
import './dropdown-menu.css'

/**
 * A menu button's list: arrow keys move between items, Escape closes it and returns focus,
 * typing a letter jumps to a matching item (Radix's menu pattern).
 */
export const DropdownMenu = Menu.Root
export const DropdownMenuTrigger = Menu.Trigger

export function DropdownMenuContent({ children, align = 'end', ...rest }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content className="menu" align={align} sideOffset={6} collisionPadding={8} {...rest}>
        {children}
      </Menu.Content>
    </Menu.Portal>
  )
}

export function DropdownMenuItem({ icon, children, ...rest }: ComponentProps<typeof Menu.Item> & { icon?: ReactNode }) {
  return (
    <Menu.Item className="menu-item" {...rest}>
      <span className="menu-item-icon" aria-hidden="true">
        {icon}
      </span>
      {children}
    </Menu.Item>
  )
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="menu-label">{children}</Menu.Label>
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="menu-separator" />
}

export const DropdownMenuRadioGroup = Menu.RadioGroup

export function DropdownMenuRadioItem({ children, ...rest }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className="menu-item" {...rest}>
      <span className="menu-item-icon" aria-hidden="true">
        <Menu.ItemIndicator>
          <Check size={14} />
        </Menu.ItemIndicator>
      </span>
      {children}
    </Menu.RadioItem>
  )
}

interface LazyDropdownMenuProps {
  /** The menu button's accessible name. */
  label: string
  className?: string
  /** What the button shows (an icon). */
  icon: ReactNode
  align?: ComponentProps<typeof Menu.Content>['align']
  /** The items, rendered only while the menu is open. */
  children: () => ReactNode
}

const OPEN_KEYS = ['Enter', ' ', 'ArrowDown']

/**
 * A menu button for long lists (one per row): until its first opening it is a plain button with
 * the menu button's name and ARIA, and the Radix menu is mounted only then. A mounted Radix menu
 * listens to the document (keydown, pointerdown) even while closed, which every row would pay on
 * every key typed anywhere on the page. Pointer (primary button, as Radix) and keyboard (Enter,
 * Space, ArrowDown, focusing the first item) open it as the Radix trigger would; once mounted it
 * stays, so that focus returns to the same button when the menu or a dialog it opened closes.
 */
export function LazyDropdownMenu({ label, className, icon, align, children }: LazyDropdownMenuProps) {
  const [open, setOpen] = useState<boolean | null>(null)
  const viaKeyboard = useRef(false)
  const show = (keyboard: boolean) => {
    viaKeyboard.current = keyboard
    setOpen(true)
  }

  if (open === null) {
    return (
      <button
        type="button"
        className={className}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={false}
        data-state="closed"
        onPointerDown={(event: PointerEvent) => {
          if (event.button !== 0 || event.ctrlKey) return
          event.preventDefault() // as Radix: the menu, not the button, takes focus
          show(false)
        }}
        onKeyDown={(event: KeyboardEvent) => {
          if (!OPEN_KEYS.includes(event.key)) return
          event.preventDefault()
          show(true)
        }}
        // A click without a pointer press first (assistive technology, element.click()).
        onClick={() => show(true)}
      >
        {icon}
      </button>
    )
  }

  return (
    <Menu.Root open={open} onOpenChange={setOpen}>
      <Menu.Trigger className={className} aria-label={label}>
        {icon}
      </Menu.Trigger>
      <DropdownMenuContent
        align={align}
        onFocus={(event) => {
          // Opened from the keyboard before Radix listened to keys: when it focuses the list, the
          // first item takes focus, as Radix does for a keyboard opening.
          if (!viaKeyboard.current || event.target !== event.currentTarget) return
          viaKeyboard.current = false
          event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')?.focus()
        }}
      >
        {children()}
      </DropdownMenuContent>
    </Menu.Root>
  )
}
