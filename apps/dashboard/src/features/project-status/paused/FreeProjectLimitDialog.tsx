import type { MemberAtFreeProjectLimit } from '@stratum/contracts'
import { Link } from 'react-router'
import { Button } from '../../../components/ui/Button'
import { Dialog } from '../../../components/ui/Dialog'

interface FreeProjectLimitDialogProps {
  orgSlug: string
  members: MemberAtFreeProjectLimit[]
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** Restoring would exceed the free plan's active-project limit of these owners or administrators. */
export function FreeProjectLimitDialog({ orgSlug, members, open, onOpenChange }: FreeProjectLimitDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Your organization has members who have reached their free project limit"
      footer={
        <>
          <Link
            className="btn btn-secondary btn-md"
            to={`/org/${orgSlug}/billing?panel=subscriptionPlan&source=projectPausedStateRestore`}
          >
            Upgrade to Pro
          </Link>
          <Button variant="primary" onClick={() => onOpenChange(false)}>
            Understood
          </Button>
        </>
      }
    >
      <p className="muted">
        These members have reached the limit of active free plan projects in the organizations where they are an owner
        or administrator:
      </p>
      <ul className="limit-members" aria-label="Members at their free project limit">
        {members.map((member) => (
          <li key={member.primary_email}>
            <strong>{member.username}</strong> ({member.primary_email}): limit of {member.free_project_limit} free projects
          </li>
        ))}
      </ul>
      <p className="muted">
        Each of them needs to pause, delete or upgrade one of their projects before this project can be restored.
      </p>
    </Dialog>
  )
}
