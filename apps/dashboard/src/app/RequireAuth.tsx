import { Navigate, Outlet, useLocation } from 'react-router'
import { Alert } from '../components/ui/Alert'
import { Button } from '../components/ui/Button'
import { LoadingState } from '../components/ui/Spinner'
import { errorMessage, isApiError } from '../data/api'
import { useProfile } from '../data/profile/useProfile'
import { signInPath } from '../lib/returnTo'

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
        <Alert
          tone="danger"
          title="Could not load your account"
          actions={
            <Button size="sm" onClick={() => void profile.refetch()}>
              Try again
            </Button>
          }
        >
          {errorMessage(profile.error)}
        </Alert>
      </div>
    )
  }

  if (profile.data.password_change_required && location.pathname !== CHANGE_PASSWORD_PATH) {
    return <Navigate to={CHANGE_PASSWORD_PATH} replace />
  }

  return <Outlet />
}
