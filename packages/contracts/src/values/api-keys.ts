/**
 * API keys and the JWT secret: key roles, the secret's bounds and update codes, and the spec's texts.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */

/** Role names of the legacy keys: anon is public, service_role is secret and bypasses RLS. */
export const API_KEY_ROLES = ['anon', 'service_role'] as const

export const JWT_SECRET_MIN_LENGTH = 32

/** Numeric codes of the reference client (JwtSecretUpdateStatus). */
export const JWT_SECRET_UPDATE_STATUS = { Updating: 0, Updated: 1, Failed: 2 } as const
export type JwtSecretUpdateStatusName = keyof typeof JWT_SECRET_UPDATE_STATUS

/** The last step an update completed. */
export const JWT_SECRET_UPDATE_PROGRESS = { Started: 0, SignedApiKeys: 1, UpdatedApiKeys: 2 } as const

/** The project shell spec's texts for the API settings panels (permissions, error catalogue). */
export const API_KEY_TEXTS = {
  noPermissionPanel:
    "You don't have permission to view API keys. These keys restricted to users with higher access levels.",
  noPermissionKey: 'You need additional permissions to view API keys',
  noPermissionLegacyToggle: 'You need additional permissions to enable or disable JWT-based API keys',
  fetchKeysFailed: 'Failed to retrieve API keys',
  fetchConfigFailed: 'Failed to retrieve configuration',
  updateFailed: 'Failed to update JWT secret',
  updateFailedKeys: 'JWT secret update failed, new API key may have issues',
  updating: 'Updating JWT secret...',
  lastUsedFailed: 'Failed to identify when the anon and service_role keys were last used',
  legacyReenabled: 'Your anon and service_role keys have been re-enabled!',
  legacyDisabled: 'Your anon and service_role keys have been disabled!',
} as const
