import type { AuthOutboxMessage, ProjectAuthSettings } from '@stratum/contracts'
import type { SecretBox } from '../../control/secret-box.js'
import type { Db } from '../../store/db.js'
import { smtpPassword } from './config.js'
import { AuthError } from './errors.js'
import { sendBySmtp } from './smtp.js'

export type EmailKind = 'confirmation' | 'invite' | 'magic_link' | 'recovery' | 'email_change' | 'email_change_current' | 'reauthentication'

/** Supabase's default email templates (subjects and wording), with the one-time code beside each link. */
const EMAILS: Record<EmailKind, { subject: string; heading: string; lead: string; action: string }> = {
  confirmation: { subject: 'Confirm Your Signup', heading: 'Confirm your signup', lead: 'Follow this link to confirm your user:', action: 'Confirm your mail' },
  invite: {
    subject: 'You have been invited',
    heading: 'You have been invited',
    lead: 'You have been invited to create a user on {site}. Follow this link to accept the invite:',
    action: 'Accept the invite',
  },
  magic_link: { subject: 'Your Magic Link', heading: 'Magic Link', lead: 'Follow this link to login:', action: 'Log In' },
  recovery: { subject: 'Reset Your Password', heading: 'Reset Password', lead: 'Follow this link to reset the password for your user:', action: 'Reset Password' },
  email_change: {
    subject: 'Confirm Email Change',
    heading: 'Confirm Change of Email',
    lead: 'Follow this link to confirm the update of your email from {email} to {new_email}:',
    action: 'Change Email',
  },
  // Secure email change: the same message goes to the current address, whose link confirms it too.
  email_change_current: {
    subject: 'Confirm Email Change',
    heading: 'Confirm Change of Email',
    lead: 'Follow this link to confirm the update of your email from {email} to {new_email}:',
    action: 'Change Email',
  },
  // A code only: GoTrue's reauthentication template has no link.
  reauthentication: { subject: 'Confirm reauthentication', heading: 'Confirm reauthentication', lead: 'Enter the code below to confirm it is you.', action: '' },
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export interface EmailContent {
  kind: EmailKind
  to: string
  link: string
  code: string
  site: string
  email?: string
  newEmail?: string
}

/** The message as HTML: the template's heading, lead, link and the code for those who type it. */
export function renderEmail(content: EmailContent): { subject: string; body: string } {
  const template = EMAILS[content.kind]
  const lead = template.lead
    .replace('{site}', escapeHtml(content.site))
    .replace('{email}', escapeHtml(content.email ?? ''))
    .replace('{new_email}', escapeHtml(content.newEmail ?? ''))
  const body = [
    `<h2>${template.heading}</h2>`,
    `<p>${lead}</p>`,
    ...(content.link ? [`<p><a href="${escapeHtml(content.link)}">${template.action}</a></p>`] : []),
    `<p>Alternatively, enter the code: ${escapeHtml(content.code)}</p>`,
  ].join('\n')
  return { subject: template.subject, body }
}

const HOUR_MS = 3_600_000
/** Messages kept per project: the outbox is for trying things on a laptop, not an archive. */
const KEPT_PER_PROJECT = 500

/**
 * Where the auth service's emails and SMS codes go: emails through the project's SMTP server when it
 * has one; otherwise, and for every SMS (there is no SMS provider), the project's outbox in the
 * platform database, shown to the project's owners and administrators in the dashboard. Every message
 * is recorded (those sent by SMTP without their body: their links are the recipient's alone), so the
 * hourly limits (rate_limit_email_sent, rate_limit_sms_sent) hold across restarts.
 */
export class AuthOutbox {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly allowPrivateSmtpHosts: boolean,
  ) {}

  async send(
    ref: string,
    settings: ProjectAuthSettings,
    message: { channel: 'email' | 'sms'; kind: string; recipient: string; subject: string; body: string },
  ): Promise<void> {
    const hourlyLimit = message.channel === 'email' ? settings.rate_limit_email_sent : settings.rate_limit_sms_sent
    const { rows } = await this.db.query<{ sent: number }>(
      `SELECT count(*)::int AS sent FROM auth_outbox WHERE project_ref = $1 AND channel = $2 AND created_at > now() - make_interval(secs => $3)`,
      [ref, message.channel, HOUR_MS / 1000],
    )
    if (rows[0]!.sent >= hourlyLimit) {
      throw message.channel === 'email'
        ? new AuthError(429, 'over_email_send_rate_limit', 'email rate limit exceeded')
        : new AuthError(429, 'over_sms_send_rate_limit', 'SMS rate limit exceeded')
    }
    const viaSmtp = message.channel === 'email' && Boolean(settings.smtp_host)
    if (viaSmtp) {
      const password = await smtpPassword(this.db, this.secrets, ref)
      await sendBySmtp(settings, password, { to: message.recipient, subject: message.subject, html: message.body }, this.allowPrivateSmtpHosts)
    }
    await this.db.query(
      `INSERT INTO auth_outbox (project_ref, channel, kind, recipient, subject, body, sent_via) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [ref, message.channel, message.kind, message.recipient, message.subject, viaSmtp ? '' : message.body, viaSmtp ? 'smtp' : 'outbox'],
    )
    await this.db.query(
      `DELETE FROM auth_outbox WHERE project_ref = $1 AND id <= (SELECT id FROM auth_outbox WHERE project_ref = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
      [ref, KEPT_PER_PROJECT],
    )
  }

  /** The messages kept in the outbox (not those sent by SMTP), newest first. */
  async list(ref: string, limit = 100): Promise<AuthOutboxMessage[]> {
    const { rows } = await this.db.query<Omit<AuthOutboxMessage, 'id' | 'created_at'> & { id: string; created_at: Date }>(
      `SELECT id, channel, kind, recipient, subject, body, created_at FROM auth_outbox WHERE project_ref = $1 AND sent_via = 'outbox' ORDER BY id DESC LIMIT $2`,
      [ref, limit],
    )
    return rows.map((row) => ({ ...row, id: Number(row.id), created_at: row.created_at.toISOString() }))
  }
}
