import { AuthError } from '../errors.js'
import type { AuthRequest, Handler } from '../request.js'
import { requireAdmin } from '../handlers/admin.js'
import { authenticationOptions, authenticationVerify } from './authentication.js'
import { passkeysDisabled } from './common.js'
import { adminDeletePasskey, adminListPasskeys, deletePasskey, listPasskeys, updatePasskey } from './manage.js'
import { registrationOptions, registrationVerify } from './registration.js'

/** GoTrue's /passkeys routes (api.go), each method and path, with an optional trailing slash as chi allows. */
const USER_ROUTES: [string, RegExp, Handler][] = [
  ['POST', /^\/passkeys\/authentication\/options\/?$/, authenticationOptions],
  ['POST', /^\/passkeys\/authentication\/verify\/?$/, authenticationVerify],
  ['POST', /^\/passkeys\/registration\/options\/?$/, registrationOptions],
  ['POST', /^\/passkeys\/registration\/verify\/?$/, registrationVerify],
  ['GET', /^\/passkeys\/?$/, listPasskeys],
  ['PATCH', /^\/passkeys\/[^/]+\/?$/, updatePasskey],
  ['DELETE', /^\/passkeys\/[^/]+\/?$/, deletePasskey],
]

const ADMIN_ROUTES: [string, RegExp, Handler][] = [
  ['GET', /^\/admin\/users\/[^/]+\/passkeys\/?$/, adminListPasskeys],
  ['DELETE', /^\/admin\/users\/[^/]+\/passkeys\/[^/]+\/?$/, adminDeletePasskey],
]

const notServed = (request: AuthRequest) => new AuthError(404, 'not_found', `${request.method} ${request.path} is not an auth endpoint of this platform`)

function find(routes: [string, RegExp, Handler][], request: AuthRequest): Handler | null {
  for (const [method, pattern, handler] of routes) if (method === request.method && pattern.test(request.path)) return handler
  return null
}

/**
 * Everything below /passkeys: refused as a whole while the project's passkey setting is off (GoTrue's
 * requirePasskeyEnabled, before any other check), else the route's handler.
 */
export const servePasskeys: Handler = async (request, deps) => {
  if (!request.settings.passkey_enabled) throw passkeysDisabled()
  const handler = find(USER_ROUTES, request)
  if (!handler) throw notServed(request)
  return handler(request, deps)
}

/**
 * /admin/users/{id}/passkeys[/{passkey_id}]: for the service role. GoTrue serves these whatever the passkey setting
 * (they sit under /admin, not /passkeys): an admin can still see and remove passkeys after the feature is turned off.
 */
export const serveAdminPasskeys: Handler = async (request, deps) => {
  requireAdmin(request)
  const handler = find(ADMIN_ROUTES, request)
  if (!handler) throw notServed(request)
  return handler(request, deps)
}
