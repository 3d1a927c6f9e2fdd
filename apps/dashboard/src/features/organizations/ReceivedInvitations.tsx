import { INVITATION_TEXTS, ROLE_LABELS, type ReceivedInvitation } from '@stratum/contracts'
import { Button } from '../../components/ui/Button'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useDeclineInvitation } from '../../data/invitations/useAnswerInvitation'
import { useReceivedInvitations } from '../../data/invitations/useReceivedInvitations'
import { formatDate } from '../../lib/format'

/**
 * Open invitations addressed to the signed-in account's email. They are shown, never applied by
 * themselves: accepting takes the link the inviter handed over (emails are never verified, so the
 * address alone proves nothing); declining works from here.
 */
export function ReceivedInvitations() {
  const received = useReceivedInvitations()
  if (!received.data?.length) return null
  return (
    <section aria-labelledby="received-invitations" className="stack-sm">
      <h2 id="received-invitations">Invitations for you</h2>
      <p className="muted">{INVITATION_TEXTS.acceptWithLink}. Nobody joins an organization without accepting.</p>
      <ul className="org-list">
        {received.data.map((invitation) => (
          <ReceivedInvitationRow key={invitation.id} invitation={invitation} />
        ))}
      </ul>
    </section>
  )
}

function ReceivedInvitationRow({ invitation }: { invitation: ReceivedInvitation }) {
  const toast = useToast()
  const decline = useDeclineInvitation()
  return (
    <li className="org-row received-invitation">
      <span className="org-row-text">
        <span className="org-row-name">{invitation.organization_name}</span>
        <span className="org-row-meta">
          {ROLE_LABELS[invitation.role]}
          {invitation.invited_by ? ` · invited by ${invitation.invited_by}` : ''} · until{' '}
          {formatDate(invitation.expires_at)}
        </span>
      </span>
      <Button
        size="sm"
        loading={decline.isPending}
        aria-label={`Decline the invitation to ${invitation.organization_name}`}
        onClick={() =>
          decline.mutate(
            { id: invitation.id },
            {
              onSuccess: () => toast.success(`Declined the invitation to ${invitation.organization_name}`),
              onError: (error) => toast.error('Failed to decline the invitation', errorMessage(error)),
            },
          )
        }
      >
        Decline
      </Button>
    </li>
  )
}
