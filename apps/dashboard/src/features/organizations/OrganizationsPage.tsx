import { ROLE_LABELS } from '@stratum/contracts'
import { Building2, ChevronRight } from 'lucide-react'
import { Link } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useOrganizations } from '../../data/organizations/useOrganizations'
import { usePageTitle } from '../../lib/usePageTitle'
import { CreateOrganizationForm } from './CreateOrganizationForm'
import { InstallationSettingsCard } from './InstallationSettingsCard'
import { ReceivedInvitations } from './ReceivedInvitations'
import './organizations.css'

export function OrganizationsPage() {
  usePageTitle(['Organizations'])
  const organizations = useOrganizations()

  return (
    <div className="page">
      <PageHeader title="Organizations" description="Organizations hold projects and the people who work on them." />
      <div className="orgs-layout">
        <div className="stack">
          <ReceivedInvitations />
          <section aria-labelledby="your-orgs" className="stack">
            <h2 id="your-orgs">Your organizations</h2>
            {organizations.isPending ? <LoadingState /> : null}
            {organizations.isError ? (
              <Alert tone="danger" title="Could not load organizations">
                {errorMessage(organizations.error)}
              </Alert>
            ) : null}
            {organizations.data?.length === 0 ? (
              <EmptyState
                icon={<Building2 size={22} />}
                title="No organizations yet"
                description="Create one to start adding projects, or ask an owner for an invitation to theirs."
              />
            ) : null}
            {organizations.data && organizations.data.length > 0 ? (
              <ul className="org-list">
                {organizations.data.map((org) => (
                  <li key={org.slug}>
                    <Link to={`/org/${org.slug}`} className="org-row">
                      <span className="org-row-icon" aria-hidden="true">
                        <Building2 size={16} />
                      </span>
                      <span className="org-row-text">
                        <span className="org-row-name">{org.name}</span>
                        <span className="org-row-meta">
                          {ROLE_LABELS[org.role]} · {org.slug}
                        </span>
                      </span>
                      <Badge tone={org.plan === 'pro' ? 'success' : 'neutral'}>
                        {org.plan === 'pro' ? 'Pro' : 'Free'}
                      </Badge>
                      <ChevronRight size={16} aria-hidden="true" className="faint" />
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        </div>
        <div className="stack">
          <CreateOrganizationForm />
          <InstallationSettingsCard />
        </div>
      </div>
    </div>
  )
}
