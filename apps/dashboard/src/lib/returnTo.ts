/**
 * Only same-site paths are accepted as a post-sign-in destination, so a crafted link
 * (returnTo=https://evil.example or //evil.example) cannot send a user elsewhere.
 */
export function safeReturnTo(value: string | null | undefined, fallback = '/organizations'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback
  if (value.startsWith('/sign-in')) return fallback
  return value
}

export function signInPath(returnTo: string): string {
  // The root only redirects to /organizations, the default destination anyway.
  return returnTo === '/' ? '/sign-in' : `/sign-in?returnTo=${encodeURIComponent(returnTo)}`
}
