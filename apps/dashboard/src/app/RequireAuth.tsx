import { Navigate, Outlet, useLocation } from 'react-router'
import { LoadingState } from '../components/ui/Spinner'
import { isApiError } from '../data/api'
import { useProfile } from '../data/profile/useProfile'
import { signInPath } from '../lib/returnTo'
import { QueryError } from '../components/ui/QueryState'

export const CHANGE_PASSWORD_PATH = '/account/me'

/**
 * Gate for every signed-in page: no session sends the user to the sign-in page (and back
 * afterwards); a one-time password must be replaced before anything else is usable.
 */
export function RequireAuth() {
  const location = useLocation()
  const profile = useProfile()

  if (profile.isPending) return <LoadingState label="Loading your account…" />

  if (profile.isError) {
    if (isApiError(profile.error, 401)) {
      return <Navigate to={signInPath(location.pathname + location.search + location.hash)} replace />
    }
    return (
      <div className="page page-narrow">
        <QueryError query={profile} title="Could not load your account" />
      </div>
    )
  }

  if (profile.data.password_change_required && location.pathname !== CHANGE_PASSWORD_PATH) {
    return <Navigate to={CHANGE_PASSWORD_PATH} replace />
  }

  return <Outlet />
}
