import type { ProjectAuthSettings, ProjectAuthSettingsUpdate } from '@stratum/contracts'
import type { Queryable } from '../../store/db.js'

/**
 * A new project's auth settings: Supabase's defaults (email confirmation on, one-hour tokens, rotating
 * refresh tokens with a 10 s reuse interval), except the email limit: Supabase's 2 per hour protects
 * its shared mail server, while ours go to the project's outbox, so it is 30 as with custom SMTP.
 */
export const DEFAULT_AUTH_SETTINGS: ProjectAuthSettings = {
  site_url: 'http://localhost:3000',
  uri_allow_list: '',
  disable_signup: false,
  external_email_enabled: true,
  external_phone_enabled: false,
  mailer_autoconfirm: false,
  sms_autoconfirm: false,
  jwt_exp: 3600,
  password_min_length: 6,
  mailer_otp_exp: 3600,
  mailer_otp_length: 6,
  sms_otp_exp: 60,
  sms_otp_length: 6,
  refresh_token_rotation_enabled: true,
  security_refresh_token_reuse_interval: 10,
  rate_limit_email_sent: 30,
  rate_limit_sms_sent: 30,
  rate_limit_verify: 30,
  rate_limit_token_refresh: 150,
  rate_limit_otp: 30,
}

export async function getAuthSettings(db: Queryable, ref: string): Promise<ProjectAuthSettings> {
  const { rows } = await db.query<{ settings: Partial<ProjectAuthSettings> }>('SELECT settings FROM project_auth_config WHERE project_ref = $1', [ref])
  return { ...DEFAULT_AUTH_SETTINGS, ...(rows[0]?.settings ?? {}) }
}

/** Stores a change over the current settings; answers the settings now in force. */
export async function updateAuthSettings(db: Queryable, ref: string, change: ProjectAuthSettingsUpdate): Promise<ProjectAuthSettings> {
  const next = { ...(await getAuthSettings(db, ref)), ...change }
  await db.query(
    `INSERT INTO project_auth_config (project_ref, settings) VALUES ($1, $2)
     ON CONFLICT (project_ref) DO UPDATE SET settings = $2, updated_at = now()`,
    [ref, JSON.stringify(next)],
  )
  return next
}
