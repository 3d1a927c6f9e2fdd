import { Building2 } from 'lucide-react'
import { Link, Outlet, useParams } from 'react-router'
import { ROLE_LABELS } from '@stratum/contracts'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { EmptyState } from '../../components/ui/EmptyState'
import { LoadingState } from '../../components/ui/Spinner'
import { TabNav } from '../../components/ui/TabNav'
import { errorMessage, isApiError } from '../../data/api'
import { useOrganization } from '../../data/organizations/useOrganization'
import { usePageTitle } from '../../lib/usePageTitle'
import './org-layout.css'


/** Header and tabs shared by /org/{slug}, /team, /general, /billing and /integrations. */
export function OrgLayout() {
  const { slug = '' } = useParams()
  const organization = useOrganization(slug)

  if (organization.isPending) return <LoadingState label="Loading organization…" />
  if (organization.isError) return <OrgLoadError error={organization.error} />

  const org = organization.data
  return (
    <div className="page">
      <header className="org-header">
        <div className="org-header-title">
          <div className="org-avatar" aria-hidden="true">
            <Building2 size={18} />
          </div>
          <div>
            <h1>{org.name}</h1>
            <div className="row org-header-meta">
              <Badge tone={org.plan === 'pro' ? 'success' : 'neutral'}>{org.plan === 'pro' ? 'Pro plan' : 'Free plan'}</Badge>
              <span className="faint">Your role: {ROLE_LABELS[org.role]}</span>
            </div>
          </div>
        </div>
        <TabNav
          label="Organization"
          tabs={[
            { label: 'Projects', to: `/org/${slug}`, end: true },
            { label: 'Team', to: `/org/${slug}/team` },
            { label: 'General', to: `/org/${slug}/general` },
            { label: 'Billing', to: `/org/${slug}/billing` },
            { label: 'Integrations', to: `/org/${slug}/integrations` },
          ]}
        />
      </header>
      <Outlet />
    </div>
  )
}

function OrgLoadError({ error }: { error: Error }) {
  usePageTitle(['Organization not found'])
  if (isApiError(error, 404) || isApiError(error, 403)) {
    return (
      <div className="page page-narrow">
        <EmptyState
          icon={<Building2 size={22} />}
          title="Organization not found"
          description="It does not exist, or you are not a member of it."
          action={
            <Link className="btn btn-secondary btn-md" to="/organizations">
              Go to your organizations
            </Link>
          }
        />
      </div>
    )
  }
  return (
    <div className="page page-narrow">
      <Alert tone="danger" title="Could not load this organization">
        {errorMessage(error)}
      </Alert>
    </div>
  )
}
