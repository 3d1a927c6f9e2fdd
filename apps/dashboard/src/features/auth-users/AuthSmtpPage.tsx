import { TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { AuthSettingsCard, type Draft, type SettingsSection } from './AuthSettingsForm'
import './auth-users.css'
import { Checkbox } from '../../components/ui/Checkbox'

const text = (value: string | boolean | undefined) => String(value ?? '').trim()

const SMTP: SettingsSection = {
  title: 'SMTP settings',
  description:
    "Send the auth service's emails (confirmations, magic links, recovery, invitations) through your own mail server. Without one they are kept in the Outbox.",
  toDraft: (s) => ({
    enabled: s.smtp_host !== null,
    smtp_host: s.smtp_host ?? '',
    smtp_port: s.smtp_port ?? '587',
    smtp_user: s.smtp_user ?? '',
    smtp_pass: '',
    smtp_admin_email: s.smtp_admin_email ?? '',
    smtp_sender_name: s.smtp_sender_name ?? '',
  }),
  toChange: (d: Draft) =>
    d.enabled
      ? {
          smtp_host: text(d.smtp_host),
          smtp_port: text(d.smtp_port),
          smtp_user: text(d.smtp_user) || null,
          // Empty: the stored password stays as it is.
          ...(text(d.smtp_pass) ? { smtp_pass: String(d.smtp_pass) } : {}),
          smtp_admin_email: text(d.smtp_admin_email),
          smtp_sender_name: text(d.smtp_sender_name) || null,
        }
      : { smtp_host: null, smtp_port: null, smtp_user: null, smtp_pass: null, smtp_admin_email: null, smtp_sender_name: null },
  fields: (d, set, disabled) => (
    <>
      <Checkbox label="Enable custom SMTP" hint="Off: emails go to the Outbox." checked={Boolean(d.enabled)} onCheckedChange={(on) => set('enabled', on)} disabled={disabled} />
      {d.enabled ? (
        <>
          <TextField label="Sender email" value={String(d.smtp_admin_email)} onChange={(event) => set('smtp_admin_email', event.target.value)} disabled={disabled} placeholder="no-reply@example.com" />
          <TextField label="Sender name" value={String(d.smtp_sender_name)} onChange={(event) => set('smtp_sender_name', event.target.value)} disabled={disabled} placeholder="Example App" />
          <TextField label="Host" value={String(d.smtp_host)} onChange={(event) => set('smtp_host', event.target.value)} disabled={disabled} placeholder="smtp.example.com" spellCheck={false} />
          <TextField label="Port number" hint="587 (STARTTLS) or 465 (TLS)" inputMode="numeric" value={String(d.smtp_port)} onChange={(event) => set('smtp_port', event.target.value)} disabled={disabled} />
          <TextField label="Username" value={String(d.smtp_user)} onChange={(event) => set('smtp_user', event.target.value)} disabled={disabled} autoComplete="off" />
          <TextField
            label="Password"
            type="password"
            hint="Kept encrypted and never shown again. Leave empty to keep the current one."
            value={String(d.smtp_pass)}
            onChange={(event) => set('smtp_pass', event.target.value)}
            disabled={disabled}
            autoComplete="new-password"
          />
        </>
      ) : null}
    </>
  ),
}

/** /project/{ref}/auth/smtp: the project's own mail server for its auth emails. */
export function AuthSmtpPage() {
  useProjectPageTitle('Emails')
  const { ref, project } = useCurrentProject()
  const canUpdate = useCan(project?.organization_slug, 'projects.update')
  return (
    <div className="page">
      <PageHeader title="Emails" description="How this project's auth service delivers its emails." />
      <AuthSettingsCard projectRef={ref} canUpdate={canUpdate} section={SMTP} />
    </div>
  )
}
