import { Alert } from '../../components/ui/Alert'
import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { useProfile } from '../../data/profile/useProfile'
import { formatDate } from '../../lib/format'
import { usePageTitle } from '../../lib/usePageTitle'
import { ChangePasswordForm } from './ChangePasswordForm'

export function AccountMePage() {
  usePageTitle(['Preferences', 'Account'])
  const { data: profile } = useProfile()
  if (!profile) return null

  return (
    <div className="stack">
      {profile.password_change_required ? (
        <Alert tone="warning" title="Choose a new password to continue" live>
          You signed in with a one-time password. Set a password of your own below; the rest of Stratum opens once it
          is saved.
        </Alert>
      ) : null}
      <Card title="Profile">
        <CopyField label="Email" value={profile.primary_email} mono={false} />
        <CopyField label="Username" value={profile.username} mono={false} />
        <p className="muted">Member since {formatDate(profile.created_at)}</p>
      </Card>
      <ChangePasswordForm email={profile.primary_email} required={profile.password_change_required} />
    </div>
  )
}
