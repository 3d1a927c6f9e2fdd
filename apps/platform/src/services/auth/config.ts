import type { ProjectAuthSettings, ProjectAuthSettingsUpdate } from '@stratum/contracts'
import type { SecretBox } from '../../control/secret-box.js'
import type { Queryable } from '../../store/db.js'

/** What is stored: the settings, with the SMTP password sealed instead of in clear. */
type StoredSettings = Partial<ProjectAuthSettings> & { smtp_pass_sealed?: string | null; signing_keys?: unknown }

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
  external_anonymous_users_enabled: false,
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
  rate_limit_anonymous_users: 30,
  mfa_totp_enroll_enabled: true,
  mfa_totp_verify_enabled: true,
  mfa_max_enrolled_factors: 10,
  mfa_phone_enroll_enabled: false,
  mfa_phone_verify_enabled: false,
  mfa_phone_otp_length: 6,
  mfa_phone_max_frequency: 5,
  mfa_phone_template: 'Your code is {{ .Code }}',
  smtp_max_frequency: 60,
  mailer_secure_email_change_enabled: true,
  security_manual_linking_enabled: false,
  security_update_password_require_reauthentication: false,
  sms_test_otp: null,
  // GoTrue's defaults: WebAuthn factors and passkeys off; the relying party follows site_url until set.
  mfa_web_authn_enroll_enabled: false,
  mfa_web_authn_verify_enabled: false,
  passkey_enabled: false,
  webauthn_rp_id: null,
  webauthn_rp_display_name: null,
  webauthn_rp_origins: null,
  saml_enabled: false,
  external_web3_solana_enabled: false,
  external_web3_ethereum_enabled: false,
  oauth_server_enabled: false,
  smtp_host: null,
  smtp_port: null,
  smtp_user: null,
  smtp_pass: null,
  smtp_admin_email: null,
  smtp_sender_name: null,
}

async function stored(db: Queryable, ref: string): Promise<StoredSettings> {
  const { rows } = await db.query<{ settings: StoredSettings }>('SELECT settings FROM project_auth_config WHERE project_ref = $1', [ref])
  return rows[0]?.settings ?? {}
}

/** The settings in force; the SMTP password is never part of them (see smtpPassword). */
export async function getAuthSettings(db: Queryable, ref: string): Promise<ProjectAuthSettings> {
  // The signing keys share the row (keys/project-keys.ts) but are no setting.
  const { smtp_pass_sealed: _sealed, signing_keys: _keys, ...settings } = await stored(db, ref)
  return { ...DEFAULT_AUTH_SETTINGS, ...settings, smtp_pass: null }
}

/** The project's SMTP password, opened; null when none is set. */
export async function smtpPassword(db: Queryable, secrets: SecretBox, ref: string): Promise<string | null> {
  const sealed = (await stored(db, ref)).smtp_pass_sealed
  return sealed ? secrets.open(sealed) : null
}

/** Stores a change over the current settings (a new SMTP password sealed); answers the settings now in force. */
export async function updateAuthSettings(db: Queryable, secrets: SecretBox, ref: string, change: ProjectAuthSettingsUpdate): Promise<ProjectAuthSettings> {
  const current = await stored(db, ref)
  const { smtp_pass: password, ...rest } = change
  const sealed = password === undefined ? (current.smtp_pass_sealed ?? null) : password ? secrets.seal(password) : null
  const { signing_keys: _keys, ...kept } = current
  const next: StoredSettings = { ...kept, ...rest, smtp_pass: null, smtp_pass_sealed: sealed }
  // Merged in SQL: the signing keys kept in the same document are written on their own (keys/project-keys.ts).
  await db.query(
    `INSERT INTO project_auth_config (project_ref, settings) VALUES ($1, $2)
     ON CONFLICT (project_ref) DO UPDATE SET settings = project_auth_config.settings || $2, updated_at = now()`,
    [ref, JSON.stringify(next)],
  )
  return getAuthSettings(db, ref)
}
