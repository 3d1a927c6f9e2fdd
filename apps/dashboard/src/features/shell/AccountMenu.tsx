import { Building2, KeyRound, LifeBuoy, LogOut, Sparkles, UserRound } from 'lucide-react'
import { useNavigate } from 'react-router'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/DropdownMenu'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useSignOut } from '../../data/auth/useSignOut'
import { useInstallationSettings } from '../../data/organizations/useInstallationSettings'
import { useProfile } from '../../data/profile/useProfile'
import { useTheme, type ThemeMode } from '../../lib/theme'

function initials(name: string): string {
  const letters = name
    .split(/[\s._@-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
  return letters.join('') || '?'
}

export function AccountMenu() {
  const navigate = useNavigate()
  const toast = useToast()
  const { data: profile } = useProfile()
  const { mode, setMode } = useTheme()
  const signOut = useSignOut()
  const installation = useInstallationSettings()

  const onSignOut = () =>
    signOut.mutate(undefined, {
      onSuccess: () => navigate('/sign-in', { replace: true }),
      onError: (error) => toast.error('Could not sign out', errorMessage(error)),
    })

  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="avatar-button" aria-label="Account menu">
        <span aria-hidden="true">{initials(profile?.username || profile?.primary_email || '')}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {profile ? (
          <DropdownMenuLabel>
            <span className="menu-account-name">{profile.username}</span>
            <span className="menu-account-email">{profile.primary_email}</span>
          </DropdownMenuLabel>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={<UserRound size={14} />} onSelect={() => navigate('/account/me')}>
          Account preferences
        </DropdownMenuItem>
        <DropdownMenuItem icon={<KeyRound size={14} />} onSelect={() => navigate('/account/tokens')}>
          Access tokens
        </DropdownMenuItem>
        <DropdownMenuItem icon={<Building2 size={14} />} onSelect={() => navigate('/organizations')}>
          All organizations
        </DropdownMenuItem>
        {installation.data?.is_installation_owner ? (
          <DropdownMenuItem icon={<Sparkles size={14} />} onSelect={() => navigate('/installation/ai')}>
            AI provider
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem icon={<LifeBuoy size={14} />} onSelect={() => navigate('/support/new')}>
          Support
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={mode} onValueChange={(value) => setMode(value as ThemeMode)}>
          <DropdownMenuRadioItem value="light">Light</DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="dark">Dark</DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="system">System</DropdownMenuRadioItem>
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={<LogOut size={14} />} onSelect={onSignOut}>
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
