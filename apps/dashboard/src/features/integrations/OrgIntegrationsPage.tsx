import { GitBranch } from 'lucide-react'
import { useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useGitHubConnectionsQuery } from '../../data/github'
import { useOrganization } from '../../data/organizations/useOrganization'
import { useCan } from '../../data/profile/useCan'
import { lazyComponent } from '../../lib/lazyComponent'
import { usePageTitle } from '../../lib/usePageTitle'
import { GitHubConnectionsTable } from './GitHubConnectionsTable'
import './integrations.css'

/** In its own chunk: it validates with the contract's zod schema, which the organizations area need not load. */
const ConnectGitHubForm = lazyComponent(() => import('./ConnectGitHubForm').then((module) => module.ConnectGitHubForm))

/** Connecting and removing needs projects.update (Owner, Administrator), as on the server. */
export const MANAGE_CONNECTIONS_TEXT = 'You need additional permissions to connect or remove GitHub repositories in this organization'

/**
 * The organization's GitHub connections: each links one of its projects to a repository, read with a token the
 * organization gives (stored encrypted on the server, never shown again). Branches of a connected project are made
 * from a Git branch, with the migrations of its supabase/migrations folder.
 */
export function OrgIntegrationsPage() {
  const { slug = '' } = useParams()
  const { data: organization } = useOrganization(slug)
  usePageTitle(['Integrations', organization?.name])
  const canManage = useCan(slug, 'projects.update')
  const connections = useGitHubConnectionsQuery(organization?.id)

  return (
    <div className="stack">
      <div className="stack-sm">
        <h2>GitHub connections</h2>
        <p className="muted integrations-intro">
          Link a project to a GitHub repository. A branch of that project made from a Git branch runs the SQL files in the
          repository&apos;s <code>supabase/migrations</code> folder on that Git branch, in order.
        </p>
      </div>
      {canManage ? (
        <ConnectGitHubForm slug={slug} organizationId={organization?.id} connections={connections.data ?? []} />
      ) : (
        <Alert tone="info">{MANAGE_CONNECTIONS_TEXT}.</Alert>
      )}
      <section aria-labelledby="connections-heading" className="stack-sm">
        <h3 id="connections-heading">Connected repositories</h3>
        {connections.isPending ? <LoadingState label="Loading connections…" /> : null}
        {connections.isError ? (
          <Alert tone="danger" title="Failed to retrieve connections">
            {errorMessage(connections.error)}
          </Alert>
        ) : null}
        {connections.data?.length === 0 ? (
          <Card>
            <EmptyState
              icon={<GitBranch size={22} />}
              title="No repositories connected"
              description={canManage ? 'Connect a project to a repository with the form above.' : 'An owner or administrator can connect a project to a repository.'}
            />
          </Card>
        ) : null}
        {connections.data?.length ? <GitHubConnectionsTable connections={connections.data} canManage={canManage} /> : null}
      </section>
    </div>
  )
}
