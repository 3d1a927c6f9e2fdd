import { Moon, Sun } from 'lucide-react'
import { IconButton } from '../../components/ui/Button'
import { useTheme } from '../../lib/theme'

/** Flips between light and dark and remembers the choice; 'System' lives in the account menu. */
export function ThemeToggle() {
  const { resolved, toggle } = useTheme()
  return (
    <IconButton
      label="Toggle theme"
      tooltip={resolved === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
      icon={resolved === 'dark' ? <Sun size={16} aria-hidden="true" /> : <Moon size={16} aria-hidden="true" />}
      onClick={toggle}
    />
  )
}
