import { TextAreaField, TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { AuthSettingsCard, type SettingsSection } from './AuthSettingsForm'
import './auth-users.css'
import { Checkbox } from '../../components/ui/Checkbox'

const SIGN_IN: SettingsSection = {
  title: 'Sign in methods',
  description: 'How your users sign up and sign in. Emails and SMS codes go to the Outbox while no mail server is configured.',
  toDraft: (s) => ({
    disable_signup: s.disable_signup,
    external_email_enabled: s.external_email_enabled,
    mailer_autoconfirm: s.mailer_autoconfirm,
    external_phone_enabled: s.external_phone_enabled,
    sms_autoconfirm: s.sms_autoconfirm,
    external_anonymous_users_enabled: s.external_anonymous_users_enabled,
    password_min_length: String(s.password_min_length),
  }),
  toChange: (d) => ({ ...d, password_min_length: Number(d.password_min_length) }),
  fields: (d, set, disabled) => (
    <>
      <Checkbox label="Allow new users to sign up" hint="Off: only users you create or invite can sign in." checked={!d.disable_signup} onCheckedChange={(on) => set('disable_signup', !on)} disabled={disabled} />
      <Checkbox label="Email" hint="Sign up and sign in with an email address: password, magic link or code." checked={Boolean(d.external_email_enabled)} onCheckedChange={(on) => set('external_email_enabled', on)} disabled={disabled} />
      <Checkbox
        label="Confirm email"
        hint="Users must open the link (or enter the code) in their confirmation email before they can sign in."
        checked={!d.mailer_autoconfirm}
        onCheckedChange={(on) => set('mailer_autoconfirm', !on)}
        disabled={disabled}
      />
      <Checkbox label="Phone" hint="Sign up and sign in with a phone number and an SMS code." checked={Boolean(d.external_phone_enabled)} onCheckedChange={(on) => set('external_phone_enabled', on)} disabled={disabled} />
      <Checkbox label="Confirm phone" hint="Users must enter the SMS code before they can sign in with a password." checked={!d.sms_autoconfirm} onCheckedChange={(on) => set('sms_autoconfirm', !on)} disabled={disabled} />
      <Checkbox
        label="Anonymous sign-ins"
        hint="Users start without an email or phone (signInAnonymously) and may add one later; they get the authenticated role with is_anonymous in their token."
        checked={Boolean(d.external_anonymous_users_enabled)}
        onCheckedChange={(on) => set('external_anonymous_users_enabled', on)}
        disabled={disabled}
      />
      <TextField label="Minimum password length" type="number" min={6} max={72} value={String(d.password_min_length)} onChange={(event) => set('password_min_length', event.target.value)} disabled={disabled} />
    </>
  ),
}

const URLS: SettingsSection = {
  title: 'URL configuration',
  description: 'Where links in emails send users back to. A redirect that is neither on the site URL nor in the list goes to the site URL.',
  toDraft: (s) => ({ site_url: s.site_url, uri_allow_list: s.uri_allow_list.split(',').map((entry) => entry.trim()).filter(Boolean).join('\n') }),
  toChange: (d) => ({ site_url: String(d.site_url).trim(), uri_allow_list: String(d.uri_allow_list).split(/[\n,]/).map((entry) => entry.trim()).filter(Boolean).join(',') }),
  fields: (d, set, disabled) => (
    <>
      <TextField label="Site URL" value={String(d.site_url)} onChange={(event) => set('site_url', event.target.value)} disabled={disabled} placeholder="https://app.example.com" spellCheck={false} />
      <TextAreaField
        label="Redirect URLs"
        hint="One per line. * matches within a host label or path segment, ** matches anything, e.g. https://*.example.com/**"
        rows={4}
        value={String(d.uri_allow_list)}
        onChange={(event) => set('uri_allow_list', event.target.value)}
        disabled={disabled}
        spellCheck={false}
      />
    </>
  ),
}

const SESSIONS: SettingsSection = {
  title: 'Sessions',
  description: 'How long access tokens last, and how refresh tokens rotate.',
  toDraft: (s) => ({
    jwt_exp: String(s.jwt_exp),
    refresh_token_rotation_enabled: s.refresh_token_rotation_enabled,
    security_refresh_token_reuse_interval: String(s.security_refresh_token_reuse_interval),
  }),
  toChange: (d) => ({ ...d, jwt_exp: Number(d.jwt_exp), security_refresh_token_reuse_interval: Number(d.security_refresh_token_reuse_interval) }),
  fields: (d, set, disabled) => (
    <>
      <TextField label="Access token expiry (seconds)" type="number" min={30} max={604800} value={String(d.jwt_exp)} onChange={(event) => set('jwt_exp', event.target.value)} disabled={disabled} />
      <Checkbox
        label="Rotate refresh tokens"
        hint="Each refresh gives a new refresh token; presenting a used one again ends the session (a stolen token stops working)."
        checked={Boolean(d.refresh_token_rotation_enabled)}
        onCheckedChange={(on) => set('refresh_token_rotation_enabled', on)}
        disabled={disabled}
      />
      <TextField
        label="Refresh token reuse interval (seconds)"
        hint="A used refresh token still works this long, for tabs that refresh at the same moment."
        type="number"
        min={0}
        max={3600}
        value={String(d.security_refresh_token_reuse_interval)}
        onChange={(event) => set('security_refresh_token_reuse_interval', event.target.value)}
        disabled={disabled}
      />
    </>
  ),
}

/** /project/{ref}/auth/providers: sign-in methods, redirect URLs and sessions of the project's auth service. */
export function AuthProvidersPage() {
  useProjectPageTitle('Sign In / Providers')
  const { ref, project } = useCurrentProject()
  const canUpdate = useCan(project?.organization_slug, 'projects.update')
  return (
    <div className="page">
      <PageHeader title="Sign In / Providers" description="Settings of this project's auth API." />
      <div className="stack">
        <AuthSettingsCard projectRef={ref} canUpdate={canUpdate} section={SIGN_IN} />
        <AuthSettingsCard projectRef={ref} canUpdate={canUpdate} section={URLS} />
        <AuthSettingsCard projectRef={ref} canUpdate={canUpdate} section={SESSIONS} />
      </div>
    </div>
  )
}
