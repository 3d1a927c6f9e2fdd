import { Navigate } from 'react-router'
import { LoadingState } from '../components/ui/Spinner'
import { useOrganizations } from '../data/organizations/useOrganizations'

/** /new without an organization: use the first one, or go choose/create one. */
export function NewProjectRedirect() {
  const organizations = useOrganizations()
  if (organizations.isPending) return <LoadingState />
  const first = organizations.data?.[0]
  return <Navigate to={first ? `/new/${first.slug}` : '/organizations'} replace />
}
