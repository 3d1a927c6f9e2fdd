import type { ProjectAuthSettings } from '@stratum/contracts'
import pg from 'pg'
import type { Logger } from 'pino'
import { unsafeInput } from '../../unsafe-input.js'
import type { ProjectService } from '../../control/projects.js'
import type { SecretBox } from '../../control/secret-box.js'
import type { ProjectDirectory } from '../../gateway/project-directory.js'
import type { Db } from '../../store/db.js'
import { useSigningKeyStore } from '../../keys/project-keys.js'
import { getAuthSettings } from './config.js'
import { AuthDatabases } from './database.js'
import { AuthError, validationFailed } from './errors.js'
import { createUser, deleteUserById, getUserById, invite, listUsers, updateUserById } from './handlers/admin.js'
import { generateLink } from './handlers/generate-link.js'
import { authorize, linkIdentity, reauthenticate, resend, unlinkIdentity } from './handlers/account.js'
import { unavailableRoute, wellKnownJwks } from './handlers/unavailable.js'
import { adminDeleteFactor, adminListFactors, challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './handlers/mfa.js'
import { otp, recover } from './handlers/otp.js'
import { signup } from './handlers/signup.js'
import { token } from './handlers/token.js'
import { getUser, logout, updateCurrentUser } from './handlers/user.js'
import { verifyGet, verifyPost } from './handlers/verify.js'
import { AuthOutbox } from './outbox.js'
import { RateLimiter } from './rate-limit.js'
import type { AuthDeps, AuthRequest, AuthResponse, Handler } from './request.js'

/** Paths with ids, and the route each stands for. */
const PATTERNS: [RegExp, string][] = [
  [/^\/admin\/users\/[^/]+$/, '/admin/users/{id}'],
  [/^\/admin\/users\/[^/]+\/factors\/?$/, '/admin/users/{id}/factors'],
  [/^\/admin\/users\/[^/]+\/factors\/[^/]+\/?$/, '/admin/users/{id}/factors/{factor_id}'],
  [/^\/factors\/[^/]+\/?$/, '/factors/{id}'],
  [/^\/factors\/[^/]+\/(challenge|verify)\/?$/, '/factors/{id}/$1'],
  [/^\/user\/identities\/(?!authorize$)[^/]+\/?$/, '/user/identities/{id}'],
]

/** The routes of /auth/v1, as @supabase/auth-js calls them. */
/** What GoTrue's /health answers, and the health check's info for auth. */
export const AUTH_HEALTH_INFO = { version: 'stratum', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' } as const

const ROUTES: Record<string, Handler> = {
  'POST /signup': signup,
  'POST /token': token,
  'GET /user': getUser,
  'PUT /user': updateCurrentUser,
  'POST /logout': logout,
  'POST /recover': recover,
  'POST /magiclink': otp,
  'POST /otp': otp,
  'POST /verify': verifyPost,
  'GET /verify': verifyGet,
  'POST /invite': invite,
  'POST /admin/generate_link': generateLink,
  'GET /admin/users': listUsers,
  'POST /admin/users': createUser,
  'GET /admin/users/{id}': getUserById,
  'PUT /admin/users/{id}': updateUserById,
  'DELETE /admin/users/{id}': deleteUserById,
  'POST /factors': enrollFactor,
  'POST /factors/{id}/challenge': challengeFactor,
  'POST /factors/{id}/verify': verifyFactor,
  'DELETE /factors/{id}': unenrollFactor,
  'GET /admin/users/{id}/factors': adminListFactors,
  'DELETE /admin/users/{id}/factors/{factor_id}': adminDeleteFactor,
  'POST /resend': resend,
  'GET /reauthenticate': reauthenticate,
  'GET /user/identities/authorize': linkIdentity,
  'DELETE /user/identities/{id}': unlinkIdentity,
  'GET /.well-known/jwks.json': wellKnownJwks,
  'GET /authorize': authorize,
  'GET /settings': async (request) => ({ status: 200, body: publicSettings(request.settings) }),
  'GET /health': async () => ({ status: 200, body: AUTH_HEALTH_INFO }),
}

function route(method: string, path: string, deps: AuthDeps): Handler | null {
  for (const [pattern, name] of PATTERNS) if (pattern.test(path)) return ROUTES[`${method} ${path.replace(pattern, name)}`] ?? unavailableRoute(path)?.(deps) ?? null
  return ROUTES[`${method} ${path}`] ?? unavailableRoute(path)?.(deps) ?? null
}

/** Reached from an email link in a browser, without an API key (Supabase's gateway leaves these open). */
export const OPEN_AUTH_PATHS = new Set(['/verify', '/.well-known/jwks.json'])

/**
 * Supabase Auth (GoTrue) for each project's own end users, behind the gateway's /auth/v1: users,
 * identities, sessions and refresh tokens live in the project database's `auth` schema; settings and
 * the outbox in the platform database. Stateless between requests but for the rate-limit windows.
 */
export class AuthService {
  readonly outbox: AuthOutbox
  private readonly deps: AuthDeps
  private settings = new Map<string, Promise<ProjectAuthSettings>>()

  constructor(
    private readonly db: Db,
    projects: ProjectService,
    directory: ProjectDirectory,
    secrets: SecretBox,
    allowPrivateSmtpHosts: boolean,
    private readonly log: Logger,
  ) {
    this.outbox = new AuthOutbox(db, secrets, allowPrivateSmtpHosts)
    // Where every service's JWT verification reads the projects' signing keys from (keys/project-keys.ts).
    useSigningKeyStore(db, secrets)
    const databases = new AuthDatabases(db, projects)
    this.deps = { databases, outbox: this.outbox, limiter: new RateLimiter(databases), secrets }
    directory.onChange((ref) => {
      this.settings.delete(ref)
      this.deps.databases.recheck(ref)
    })
    // A pool whose login changed is replaced on its next use (project-connections.ts); a project that stops (pause,
    // delete) loses its pool, and only then: ending it on every change failed the requests under way.
    directory.onSettled(
      async (ref, project) => {
        if (project?.status !== 'ACTIVE_HEALTHY') await this.deps.databases.forget(ref)
      },
      (error, ref) => log.warn({ err: error, ref }, 'a stopped project kept its auth pool'),
    )
  }

  async settingsOf(ref: string): Promise<ProjectAuthSettings> {
    let settings = this.settings.get(ref)
    if (!settings) {
      settings = getAuthSettings(this.db, ref)
      this.settings.set(ref, settings)
      settings.catch(() => this.settings.delete(ref))
    }
    return settings
  }

  /** Answers one request; auth errors become GoTrue's error bodies, anything else a logged 500. */
  async handle(request: Omit<AuthRequest, 'settings'>, apiVersion: string | undefined): Promise<AuthResponse> {
    const handler = route(request.method, request.path, this.deps)
    try {
      const problem = unsafeAuthInput(request)
      if (problem) throw validationFailed(problem)
      if (!handler) throw new AuthError(404, 'not_found', `${request.method} ${request.path} is not an auth endpoint of this platform`)
      return await handler({ ...request, settings: await this.settingsOf(request.project.ref) }, this.deps)
    } catch (error) {
      const refused = error instanceof AuthError ? error : unexpected(error, this.log, request.project.ref)
      return { status: refused.status, body: refused.body(apiVersion) }
    }
  }

  /** The health check (GET /v1/projects/{ref}/health): the auth schema read over the service's own connection. */
  async probe(ref: string): Promise<void> {
    await this.deps.databases.query(ref, 'SELECT count(*) FROM auth.users WHERE false')
  }

  async stop(): Promise<void> {
    await this.deps.databases.stop()
  }
}

/**
 * Why a request cannot be read, or null: a NUL byte in its path, query string or body (Postgres text
 * holds none, so it would fail deep in a query), or a body nested deeper than the input guard allows.
 */
function unsafeAuthInput(request: Pick<AuthRequest, 'path' | 'query' | 'body'>): string | null {
  let path = request.path
  try {
    path = decodeURIComponent(path)
  } catch {
    // An undecodable path matches no route: answered as one.
  }
  if (path.includes('\u0000')) return 'The path contains a NUL character (\\u0000), which is not accepted'
  return unsafeInput(Object.fromEntries([...request.query.keys()].map((name) => [name, request.query.getAll(name)])), 'query string') ?? unsafeInput(request.body, 'request body')
}

function unexpected(error: unknown, log: Logger, ref: string): AuthError {
  const code = (error as { code?: unknown }).code
  // Two sign-ups for one address at the same moment: the unique index decides, as in GoTrue.
  if (code === '23505') return new AuthError(422, 'user_already_exists', 'User already registered')
  // A data exception (SQLSTATE class 22): a value of the request its column cannot hold, which no check caught.
  if (error instanceof pg.DatabaseError && typeof code === 'string' && code.startsWith('22')) return validationFailed(`Invalid value: ${error.message}`)
  log.error({ err: error, ref }, 'auth: request failed')
  return new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information')
}

/** The external providers GoTrue names in /settings that this platform does not serve. */
const PROVIDERS_NOT_SERVED = [
  'apple', 'azure', 'bitbucket', 'discord', 'facebook', 'snapchat', 'figma', 'fly', 'github', 'gitlab', 'google', 'keycloak', 'kakao',
  'linkedin', 'linkedin_oidc', 'notion', 'spotify', 'slack', 'slack_oidc', 'twitch', 'twitter', 'workos', 'zoom',
]

/** GoTrue's GET /settings (internal/api/settings.go): which sign-in methods the project offers, every provider named. */
function publicSettings(settings: ProjectAuthSettings) {
  const external: Record<string, boolean> = { anonymous_users: settings.external_anonymous_users_enabled, email: settings.external_email_enabled, phone: settings.external_phone_enabled }
  for (const provider of PROVIDERS_NOT_SERVED) external[provider] = false
  return {
    external,
    disable_signup: settings.disable_signup,
    mailer_autoconfirm: settings.mailer_autoconfirm,
    phone_autoconfirm: settings.sms_autoconfirm,
    sms_provider: settings.external_phone_enabled ? 'outbox' : '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: settings.passkey_enabled,
  }
}
