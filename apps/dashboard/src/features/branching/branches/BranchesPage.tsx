import type { Branch } from '@stratum/contracts'
import { GitBranch, Plus } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '../../../components/ui/Badge'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { EmptyState } from '../../../components/ui/EmptyState'
import { PageHeader } from '../../../components/ui/PageHeader'
import { QueryState } from '../../../components/ui/QueryState'
import { TableHead } from '../../../components/ui/TableHead'
import { useBranches } from '../../../data/branches/useBranches'
import { useCan } from '../../../data/profile/useCan'
import { useCurrentProject } from '../../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../../lib/useProjectPageTitle'
import { EnableBranchingDialog } from '../enable/EnableBranchingDialog'
import { UtcTime } from '../UtcTime'
import { CreateBranchDialog } from './CreateBranchDialog'
import { DisableBranchingButton } from './DisableBranchingButton'
import { PreviewBranchRow } from './PreviewBranchRow'
import '../branching.css'

export const NEEDS_INFRASTRUCTURE = 'You need additional permissions to manage branches'

function ProductionBranchCard({ branch }: { branch: Branch }) {
  return (
    <Card title="Production branch" description="This project itself: preview branches are copied from it and merged back into it.">
      <dl className="branch-facts" data-testid="production-branch">
        <div>
          <dt>Name</dt>
          <dd className="row">
            <span className="branch-name">{branch.name}</span>
            <Badge tone="success">Production</Badge>
          </dd>
        </div>
        <div>
          <dt>Git branch</dt>
          <dd className="mono">{branch.git_branch ?? <span className="faint">Not linked</span>}</dd>
        </div>
        <div>
          <dt>Enabled</dt>
          <dd>
            <UtcTime iso={branch.created_at} />
          </dd>
        </div>
      </dl>
    </Card>
  )
}

/** /project/{ref}/branches: the production branch, then the preview branches; the enable dialog while branching is off. */
export function BranchesPage() {
  useProjectPageTitle('Branches')
  const { ref, project } = useCurrentProject()
  const branches = useBranches(ref)
  const canManage = useCan(project?.organization_slug, 'infrastructure.execute')
  const [enableOpen, setEnableOpen] = useState(false)
  const [createOpen, setCreateOpen] = useState(false)
  const list = branches.data ?? []
  const production = list.find((branch) => branch.is_default)
  const previews = list.filter((branch) => !branch.is_default).sort((a, b) => b.created_at.localeCompare(a.created_at))

  // A preview branch has no branches of its own: its page points back to the project it was branched from.
  if (project?.parent_project_ref) {
    return (
      <div className="page">
        <PageHeader title="Branches" description="This project is a preview branch." />
        <Card>
          <EmptyState
            icon={<GitBranch size={22} />}
            title="This project is a preview branch"
            description="Branches are made, merged and reset from the project it was branched from."
            action={
              <Link className="btn btn-primary btn-md" to={`/project/${project.parent_project_ref}/branches`}>
                Open the parent project's branches
              </Link>
            }
          />
        </Card>
      </div>
    )
  }

  return (
    <div className="page">
      <PageHeader
        title="Branches"
        description="Preview branches are copies of this project's database, each a Postgres project of its own: try migrations and changes there, then merge them into production."
        actions={
          production ? (
            <>
              <DisableBranchingButton projectRef={ref} previewCount={previews.length} canManage={canManage} />
              <Button
                variant="primary"
                icon={<Plus size={14} aria-hidden="true" />}
                disabled={!canManage}
                disabledReason={NEEDS_INFRASTRUCTURE}
                onClick={() => setCreateOpen(true)}
              >
                Create branch
              </Button>
            </>
          ) : undefined
        }
      />
      <div className="stack">
        <QueryState
          query={branches}
          loadingLabel="Loading branches…"
          errorTitle="Failed to retrieve branches"
          isEmpty={!production}
          empty={
            <Card>
              <EmptyState
                icon={<GitBranch size={22} />}
                title="Database branching is not enabled"
                description="Enable branching to make preview branches of this project: copies of its database, with or without data, where migrations run before they reach production."
                action={
                  <Button variant="primary" disabled={!canManage} disabledReason={NEEDS_INFRASTRUCTURE} onClick={() => setEnableOpen(true)}>
                    Enable branching
                  </Button>
                }
              />
            </Card>
          }
        >
          {production ? <ProductionBranchCard branch={production} /> : null}
          <Card title="Preview branches" flush>
            {previews.length === 0 ? (
              <EmptyState title="No preview branches" description="Create a branch to get a copy of production to work on." />
            ) : (
              <table className="table" aria-label="Preview branches">
                <TableHead columns={['Name', 'Parent', 'Git branch', 'Status', 'Created', { hidden: 'Actions' }]} />
                <tbody>
                  {previews.map((branch) => (
                    <PreviewBranchRow key={branch.id} branch={branch} parentName={production?.name ?? ''} canManage={canManage} />
                  ))}
                </tbody>
              </table>
            )}
          </Card>
        </QueryState>
      </div>
      <EnableBranchingDialog open={enableOpen} onOpenChange={setEnableOpen} />
      <CreateBranchDialog projectRef={ref} open={createOpen} onOpenChange={setCreateOpen} />
    </div>
  )
}
