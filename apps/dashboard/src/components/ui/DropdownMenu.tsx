import * as Menu from '@radix-ui/react-dropdown-menu'
import { Check } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
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
