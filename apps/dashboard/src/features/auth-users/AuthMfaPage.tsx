import { SelectField, TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { AuthSettingsCard, type Draft, type SettingsSection } from './AuthSettingsForm'
import './auth-users.css'

/**
 * The TOTP factor's three states, as Supabase's Multi-Factor page offers them: enrolling needs
 * verifying (a factor that cannot be verified is useless), and "verify only" lets users keep using
 * their factors while no new ones are enrolled.
 */
const TOTP_MODES = {
  enabled: { label: 'Enabled', enroll: true, verify: true },
  verify: { label: 'Verify enabled (no new enrollments)', enroll: false, verify: true },
  disabled: { label: 'Disabled', enroll: false, verify: false },
} as const
type TotpMode = keyof typeof TOTP_MODES

function totpMode(enroll: boolean, verify: boolean): TotpMode {
  if (!verify) return 'disabled'
  return enroll ? 'enabled' : 'verify'
}

const MFA: SettingsSection = {
  title: 'Multi-Factor Authentication (MFA)',
  description: 'Users add an authenticator app as a second factor (supabase.auth.mfa.enroll); a session that verified one reaches aal2, which policies can require.',
  toDraft: (s) => ({ totp: totpMode(s.mfa_totp_enroll_enabled, s.mfa_totp_verify_enabled), mfa_max_enrolled_factors: String(s.mfa_max_enrolled_factors) }),
  toChange: (d: Draft) => {
    const mode = TOTP_MODES[d.totp as TotpMode] ?? TOTP_MODES.disabled
    return { mfa_totp_enroll_enabled: mode.enroll, mfa_totp_verify_enabled: mode.verify, mfa_max_enrolled_factors: Number(d.mfa_max_enrolled_factors) }
  },
  fields: (d, set, disabled) => (
    <>
      <SelectField
        label="TOTP (App Authenticator)"
        hint="Time-based one-time codes from an app such as 1Password, Authy or Google Authenticator."
        value={String(d.totp)}
        onChange={(event) => set('totp', event.target.value)}
        disabled={disabled}
      >
        {Object.entries(TOTP_MODES).map(([value, mode]) => (
          <option key={value} value={value}>
            {mode.label}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Maximum number of factors per user"
        hint="Enrolling one more is refused; unverified factors count too."
        type="number"
        min={0}
        value={String(d.mfa_max_enrolled_factors)}
        onChange={(event) => set('mfa_max_enrolled_factors', event.target.value)}
        disabled={disabled}
      />
    </>
  ),
}

/** /project/{ref}/auth/mfa: the auth service's second factors (the Management API's mfa_* fields). */
export function AuthMfaPage() {
  useProjectPageTitle('Multi-Factor')
  const { ref, project } = useCurrentProject()
  const canUpdate = useCan(project?.organization_slug, 'projects.update')
  return (
    <div className="page">
      <PageHeader title="Multi-Factor" description="Second factors your users can add to their accounts." />
      <div className="stack">
        <AuthSettingsCard projectRef={ref} canUpdate={canUpdate} section={MFA} />
      </div>
    </div>
  )
}
