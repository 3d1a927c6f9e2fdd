import { TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { AuthSettingsCard, type SettingsSection } from './AuthSettingsForm'
import './auth-users.css'

const LIMITS: Array<{ name: string; label: string; hint: string }> = [
  { name: 'rate_limit_email_sent', label: 'Emails sent per hour', hint: 'Confirmation, magic link, recovery, invitation and email change messages of the whole project.' },
  { name: 'rate_limit_sms_sent', label: 'SMS messages sent per hour', hint: 'SMS codes of the whole project.' },
  { name: 'rate_limit_otp', label: 'Sign-ups and sign-ins per 5 minutes', hint: 'Per IP address, and per account for password sign-ins: guessing one password from many addresses is slowed too.' },
  { name: 'rate_limit_anonymous_users', label: 'Anonymous sign-ins per hour', hint: 'Per IP address.' },
  { name: 'rate_limit_token_refresh', label: 'Token refreshes per 5 minutes', hint: 'Per IP address.' },
  { name: 'rate_limit_verify', label: 'Token verifications per 5 minutes', hint: 'Links and codes checked, per IP address.' },
]

const SECTION: SettingsSection = {
  title: 'Rate limits',
  description: 'Requests over a limit are refused with 429 until the window passes.',
  toDraft: (s) => Object.fromEntries(LIMITS.map(({ name }) => [name, String(s[name as keyof typeof s])])),
  toChange: (d) => Object.fromEntries(LIMITS.map(({ name }) => [name, Number(d[name])])),
  fields: (d, set, disabled) =>
    LIMITS.map(({ name, label, hint }) => (
      <TextField key={name} label={label} hint={hint} type="number" min={1} value={String(d[name])} onChange={(event) => set(name, event.target.value)} disabled={disabled} />
    )),
}

/** /project/{ref}/auth/rate-limits: the auth service's limits (the Management API's rate_limit_* fields). */
export function AuthRateLimitsPage() {
  useProjectPageTitle('Rate Limits')
  const { ref, project } = useCurrentProject()
  const canUpdate = useCan(project?.organization_slug, 'projects.update')
  return (
    <div className="page">
      <PageHeader title="Rate Limits" description="Safeguards against bursts of sign-ups, sign-ins and messages." />
      <AuthSettingsCard projectRef={ref} canUpdate={canUpdate} section={SECTION} />
    </div>
  )
}
