import { z } from 'zod'

/** An absolute http(s) URL: where the auth service may send users back to. */
const HttpUrl = z
  .string()
  .max(2_000)
  .regex(/^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i, 'Enter an absolute http or https URL')

/** Comma-separated redirect URLs; `*` and `**` are wildcards as in Supabase's allow list. */
const UrlAllowList = z
  .string()
  .max(20_000)
  .superRefine((value, ctx) => {
    for (const entry of value.split(',').map((part) => part.trim()).filter(Boolean)) {
      if (!HttpUrl.safeParse(entry.replace(/\*+/g, 'x')).success) ctx.addIssue({ code: 'custom', message: `'${entry}' is not an http or https URL` })
    }
  })

/** Comma-separated http(s) origins without a path, as browsers put them in a WebAuthn ceremony's client data. */
const WebAuthnOrigins = z
  .string()
  .max(10_000)
  .superRefine((value, ctx) => {
    const entries = value.split(',').map((part) => part.trim()).filter(Boolean)
    if (!entries.length) ctx.addIssue({ code: 'custom', message: 'Enter at least one origin, e.g. https://example.com' })
    for (const entry of entries) {
      if (!/^https?:\/\/[^\s/?#@]+$/i.test(entry)) ctx.addIssue({ code: 'custom', message: `'${entry}' is not an origin (scheme://host[:port], no path)` })
    }
  })

const PerWindow = z.number().int().min(1).max(2_147_483_647)

/** A feature the platform does not serve: only `false` is accepted, with a message that says so. */
const NotOffered = (what: string) => z.boolean().refine((value) => !value, `${what} is not offered on this platform`)

/**
 * The settings of a project's auth service, with the Management API's field names
 * (AuthConfigResponse / UpdateAuthConfigBody of /v1/projects/{ref}/config/auth): the ones this
 * platform's auth service honours.
 */
export const ProjectAuthSettings = z.object({
  site_url: HttpUrl,
  uri_allow_list: UrlAllowList,
  disable_signup: z.boolean(),
  external_email_enabled: z.boolean(),
  external_phone_enabled: z.boolean(),
  /** Sign-ins without an email or phone (supabase.auth.signInAnonymously): role authenticated, is_anonymous true. */
  external_anonymous_users_enabled: z.boolean(),
  /** Off: a new email user must open the confirmation link (or enter its code) before signing in. */
  mailer_autoconfirm: z.boolean(),
  sms_autoconfirm: z.boolean(),
  /** Access token lifetime in seconds. */
  jwt_exp: z.number().int().min(30).max(604_800),
  password_min_length: z.number().int().min(6).max(72),
  /** How long emailed links and codes stay valid, in seconds. */
  mailer_otp_exp: z.number().int().min(60).max(86_400),
  mailer_otp_length: z.number().int().min(6).max(10),
  sms_otp_exp: z.number().int().min(30).max(86_400),
  sms_otp_length: z.number().int().min(6).max(10),
  refresh_token_rotation_enabled: z.boolean(),
  /** Seconds in which a just-rotated refresh token may be presented again (concurrent tabs). */
  security_refresh_token_reuse_interval: z.number().int().min(0).max(3_600),
  /** Emails per hour for the whole project. */
  rate_limit_email_sent: PerWindow,
  /** SMS messages per hour for the whole project. */
  rate_limit_sms_sent: PerWindow,
  /** Verifications (links and codes) per 5 minutes per IP address. */
  rate_limit_verify: PerWindow,
  /** Token refreshes per 5 minutes per IP address. */
  rate_limit_token_refresh: PerWindow,
  /** Sign-ups and sign-ins per 5 minutes, per IP address and per account. */
  rate_limit_otp: PerWindow,
  /** Anonymous sign-ins per hour per IP address. */
  rate_limit_anonymous_users: PerWindow,
  /** Users may add a TOTP factor (an authenticator app) to their account. */
  mfa_totp_enroll_enabled: z.boolean(),
  /** Users may verify their TOTP factors, which raises a session to aal2. */
  mfa_totp_verify_enabled: z.boolean(),
  /** Users may add a phone factor (a code by SMS, through the project's outbox) to their account. */
  mfa_phone_enroll_enabled: z.boolean(),
  /** Users may verify their phone factors, which raises a session to aal2. */
  mfa_phone_verify_enabled: z.boolean(),
  /** Digits of a phone factor's code. */
  mfa_phone_otp_length: z.number().int().min(6).max(10),
  /** Seconds before a phone factor is sent another code. */
  mfa_phone_max_frequency: z.number().int().min(0).max(32_767),
  /** The SMS of a phone factor's code; `{{ .Code }}` stands for the code. */
  mfa_phone_template: z.string().min(1).max(1_000).refine((value) => value.includes('{{ .Code }}'), 'The template must contain {{ .Code }}'),
  /** Factors a user may have, verified or not (0: none, as Supabase's reference allows). */
  mfa_max_enrolled_factors: z.number().int().min(0).max(2_147_483_647),
  /** Seconds before a confirmation email to the same user is sent again (GoTrue's SMTP max frequency). */
  smtp_max_frequency: z.number().int().min(0).max(32_767),
  /** An email change is confirmed from both the current and the new address (GoTrue's double confirm). */
  mailer_secure_email_change_enabled: z.boolean(),
  /** Users may link and unlink identities themselves (GET /user/identities/authorize, DELETE /user/identities/{id}). */
  security_manual_linking_enabled: z.boolean(),
  /** A password change needs the nonce sent by /reauthenticate, unless the session signed in within the last 24 hours. */
  security_update_password_require_reauthentication: z.boolean(),
  /** Fixed SMS codes for test numbers, `phone=code` comma-separated (no message is sent to them). */
  sms_test_otp: z
    .string()
    .max(10_000)
    .regex(/^([0-9]{1,15}=[0-9]+,?)*$/, 'Use phone=code pairs separated by commas, e.g. 15551234567=123456')
    .nullable(),
  /** Users may add a WebAuthn factor (a security key or platform authenticator) to their account. */
  mfa_web_authn_enroll_enabled: z.boolean(),
  /** Users may verify their WebAuthn factors, which raises a session to aal2. */
  mfa_web_authn_verify_enabled: z.boolean(),
  /** Sign-in with passkeys (discoverable WebAuthn credentials) at /auth/v1/passkeys, as GoTrue's passkey setting. */
  passkey_enabled: z.boolean(),
  /** The WebAuthn relying party's id (a host name, e.g. example.com); null: the host of site_url. */
  webauthn_rp_id: z
    .string()
    .max(253)
    .regex(/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i, 'Enter a host name without a scheme or port, e.g. example.com')
    .nullable(),
  /** The name authenticators show for the relying party; null: the relying party's id. */
  webauthn_rp_display_name: z.string().min(1).max(255).nullable(),
  /** Comma-separated origins (scheme, host, port) WebAuthn ceremonies may come from; null: the origin of site_url. */
  webauthn_rp_origins: WebAuthnOrigins.nullable(),
  /** Services this platform does not offer: accepted as off only, so the settings say what is served. */
  saml_enabled: NotOffered('SAML 2.0 single sign-on'),
  external_web3_solana_enabled: NotOffered('Sign in with Solana'),
  external_web3_ethereum_enabled: NotOffered('Sign in with Ethereum'),
  oauth_server_enabled: NotOffered('The OAuth 2.1 server'),
  /** The project's own mail server; null: emails go to the project's outbox. */
  smtp_host: z.string().regex(/^[A-Za-z0-9.-]{1,253}$/, 'Enter a host name or IP address').nullable(),
  smtp_port: z.string().regex(/^\d{1,5}$/, 'Enter a port number').nullable(),
  smtp_user: z.string().max(255).nullable(),
  /** Write-only: answers always carry null (the password is sealed where it is kept). */
  smtp_pass: z.string().max(1_024).nullable(),
  smtp_admin_email: z.string().regex(/^[^\s@]+@[^\s@]+$/, 'Enter the email address messages are sent from').nullable(),
  smtp_sender_name: z.string().max(255).nullable(),
})
export type ProjectAuthSettings = z.infer<typeof ProjectAuthSettings>

/** PATCH /v1/projects/{ref}/config/auth: any subset of the settings. */
export const ProjectAuthSettingsUpdate = ProjectAuthSettings.partial().strict()
export type ProjectAuthSettingsUpdate = z.infer<typeof ProjectAuthSettingsUpdate>

/** One email or SMS message the auth service sent to the project's outbox. */
export const AuthOutboxMessage = z.object({
  id: z.number().int(),
  channel: z.enum(['email', 'sms']),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string(),
})
export type AuthOutboxMessage = z.infer<typeof AuthOutboxMessage>

/** A project's end user as the auth service's JSON shows it (GoTrue's User, the fields the dashboard reads). */
export interface AuthUser {
  id: string
  email: string
  phone: string
  email_confirmed_at?: string
  phone_confirmed_at?: string
  confirmation_sent_at?: string
  invited_at?: string
  last_sign_in_at?: string
  banned_until?: string
  is_anonymous?: boolean
  app_metadata: Record<string, unknown>
  user_metadata: Record<string, unknown>
  created_at: string
  updated_at: string
}

/** GET /platform/auth/{ref}/users: one page, newest first. */
export interface AuthUsersPage {
  users: AuthUser[]
  aud: string
}
