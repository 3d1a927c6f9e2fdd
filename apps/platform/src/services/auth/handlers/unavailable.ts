import { signingKeySet } from '../../../keys/project-keys.js'
import { AuthError } from '../errors.js'
import { serveAdminPasskeys, servePasskeys } from '../passkeys/routes.js'
import type { AuthRequest, AuthResponse, Handler } from '../request.js'
import { requireAdmin } from './admin.js'
import { currentUser } from './user.js'

/*
 * The parts of GoTrue this platform does not serve, refused as GoTrue refuses them when they are turned off (its
 * require...Enabled middlewares: same status, code and text), so clients and their tests see the answer they know.
 * The project's settings accept these features as off only (packages/contracts project-auth.ts).
 */

const samlDisabled = () => new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled')
const oauthServerDisabled = () => new AuthError(404, 'feature_disabled', 'OAuth server is disabled')
const customProvidersDisabled = () => new AuthError(404, 'feature_disabled', 'Custom OAuth providers are disabled')

const refuse =
  (error: () => AuthError, before?: (request: AuthRequest) => void | Promise<void>): Handler =>
  async (request) => {
    await before?.(request)
    throw error()
  }

/** GoTrue checks the user before the feature on these routes: a bearer without a session is refused as such first. */
const signedIn = (deps: Parameters<Handler>[1]) => async (request: AuthRequest) => {
  await deps.databases.transaction(request.project.ref, (db) => currentUser(db, request))
}

/**
 * Paths GoTrue serves only with a feature on, and the refusal each gets here (admin routes check the key first); and
 * the passkey routes, which the service's route table reaches through here too.
 */
const REFUSED: [RegExp, (deps: Parameters<Handler>[1]) => Handler][] = [
  [/^\/sso(\/saml\/(metadata|acs))?\/?$/, () => refuse(samlDisabled)],
  [/^\/admin\/sso\/providers(\/[^/]+)?\/?$/, () => refuse(samlDisabled, requireAdmin)],
  [/^\/admin\/oauth\/clients(\/[^/]+(\/regenerate_secret)?)?\/?$/, () => refuse(oauthServerDisabled, requireAdmin)],
  [/^\/oauth\/(authorize|token|clients\/register|authorizations\/[^/]+(\/consent)?)\/?$/, () => refuse(oauthServerDisabled)],
  [/^\/\.well-known\/oauth-authorization-server\/?$/, () => refuse(oauthServerDisabled)],
  [/^\/user\/oauth\/grants\/?$/, (deps) => refuse(oauthServerDisabled, signedIn(deps))],
  // Served (passkeys/routes.ts): the user routes refuse as GoTrue does while the project's passkey setting is off.
  [/^\/passkeys(\/.*)?$/, () => servePasskeys],
  [/^\/admin\/users\/[^/]+\/passkeys(\/[^/]+)?\/?$/, () => serveAdminPasskeys],
  [/^\/admin\/custom-providers(\/[^/]+)?\/?$/, () => refuse(customProvidersDisabled, requireAdmin)],
]

/** The refusal for a path of a feature that is off, or null when the path is none of them. */
export function unavailableRoute(path: string): ((deps: Parameters<Handler>[1]) => Handler) | null {
  for (const [pattern, handler] of REFUSED) if (pattern.test(path)) return handler
  return null
}

/**
 * GET /.well-known/jwks.json: the public halves of the project's asymmetric signing keys (in use, standby, previously
 * used), never the legacy secret, cached for ten minutes by clients as GoTrue allows.
 */
export async function wellKnownJwks(request: AuthRequest): Promise<AuthResponse> {
  const { jwks } = await signingKeySet(request.project)
  return { status: 200, body: { keys: jwks }, headers: { 'cache-control': 'public, max-age=600' } }
}
