import { INVITATION_TEXTS, ROLE_LABELS, canAssignRole, type Invitation } from '@stratum/contracts'
import { Trash2 } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { TableHead } from '../../components/ui/TableHead'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useRevokeInvitation } from '../../data/members/useRevokeInvitation'
import { useOrgRole } from '../../data/profile/useCan'
import { formatDate } from '../../lib/format'

interface InvitationsTableProps {
  slug: string
  invitations: Invitation[]
}

/** Open invitations: who, as what, from whom, until when; revoking kills the link. */
export function InvitationsTable({ slug, invitations }: InvitationsTableProps) {
  const toast = useToast()
  const myRole = useOrgRole(slug)
  const revoke = useRevokeInvitation()

  const onRevoke = (invitation: Invitation) =>
    revoke.mutate(
      { slug, id: invitation.id },
      {
        onSuccess: () => toast.success(`The invitation of ${invitation.email} was revoked`),
        onError: (error) => toast.error('Failed to revoke the invitation', errorMessage(error)),
      },
    )

  return (
    <div className="card card-body-flush">
      <table className="table">
        <TableHead columns={['Email', 'Role', 'Invited by', 'Expires', { hidden: 'Actions' }]} />
        <tbody>
          {invitations.map((invitation) => {
            // Only an owner may revoke the invitation of a future owner.
            const revocable = myRole !== undefined && canAssignRole(myRole, invitation.role)
            return (
              <tr key={invitation.id}>
                <td>{invitation.email}</td>
                <td>{ROLE_LABELS[invitation.role]}</td>
                <td className="muted">{invitation.invited_by ?? '—'}</td>
                <td className="muted nowrap">
                  {invitation.expired ? <Badge tone="warning">Expired</Badge> : formatDate(invitation.expires_at)}
                </td>
                <td className="table-actions">
                  <IconButton
                    size="sm"
                    label={`Revoke the invitation of ${invitation.email}`}
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    disabled={!revocable || revoke.isPending}
                    disabledReason={revocable ? undefined : INVITATION_TEXTS.revokeOwner}
                    onClick={() => onRevoke(invitation)}
                  />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
