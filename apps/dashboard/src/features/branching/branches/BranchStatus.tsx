import type { Branch } from '@stratum/contracts'
import { StatusBadge } from '../../../components/StatusBadge'
import { Badge, type BadgeTone } from '../../../components/ui/Badge'

const LOOK: Record<Branch['status'], { label: string; tone: BadgeTone; pulse?: boolean }> = {
  CREATING_PROJECT: { label: 'Creating', tone: 'info', pulse: true },
  RUNNING_MIGRATIONS: { label: 'Running migrations', tone: 'info', pulse: true },
  MIGRATIONS_PASSED: { label: 'Migrations passed', tone: 'success' },
  MIGRATIONS_FAILED: { label: 'Migrations failed', tone: 'danger' },
  FUNCTIONS_DEPLOYED: { label: 'Functions deployed', tone: 'success' },
  FUNCTIONS_FAILED: { label: 'Functions failed', tone: 'danger' },
}

/** The branch's own progress and, beside it, the status of the branch's project (the Management API's two fields). */
export function BranchStatus({ branch }: { branch: Branch }) {
  const look = LOOK[branch.status] ?? { label: branch.status, tone: 'neutral' as const }
  return (
    <div className="branch-status">
      <div className="row-wrap">
        <Badge tone={look.tone} dot={look.pulse ? 'pulse' : true} data-testid="branch-status" data-status={branch.status} title={branch.status}>
          {look.label}
        </Badge>
        {branch.preview_project_status ? <StatusBadge status={branch.preview_project_status} /> : null}
      </div>
      {branch.error_message ? <p className="branch-error">{branch.error_message}</p> : null}
    </div>
  )
}
