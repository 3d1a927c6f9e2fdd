import { PERMISSION_TEXTS, type CreatedInvitation } from '@stratum/contracts'
import { useState } from 'react'
import { useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useInvitations } from '../../data/members/useInvitations'
import { useMembers } from '../../data/members/useMembers'
import { useOrganization } from '../../data/organizations/useOrganization'
import { useCan } from '../../data/profile/useCan'
import { usePageTitle } from '../../lib/usePageTitle'
import { AddMemberForm } from './AddMemberForm'
import { InvitationLinkDialog } from './InvitationLinkDialog'
import { InvitationsTable } from './InvitationsTable'
import { MembersTable } from './MembersTable'
import './organizations.css'

export function OrgTeamPage() {
  const { slug = '' } = useParams()
  const { data: organization } = useOrganization(slug)
  usePageTitle(['Team', organization?.name])
  const members = useMembers(slug)
  const canManage = useCan(slug, 'members.write')
  const invitations = useInvitations(slug, canManage)
  const [created, setCreated] = useState<CreatedInvitation | null>(null)

  return (
    <div className="stack">
      {canManage ? null : <Alert tone="info">{PERMISSION_TEXTS.manageMembers}.</Alert>}
      <AddMemberForm slug={slug} canManage={canManage} onInvited={setCreated} />
      <section aria-labelledby="members-heading" className="stack-sm">
        <h2 id="members-heading">Members</h2>
        {members.isPending ? <LoadingState label="Loading members…" /> : null}
        {members.isError ? (
          <Alert tone="danger" title="Could not load members">
            {errorMessage(members.error)}
          </Alert>
        ) : null}
        {members.data ? <MembersTable slug={slug} members={members.data} canManage={canManage} /> : null}
      </section>
      {/* Owners and administrators only: they are the ones who can list and revoke invitations. */}
      {canManage && (invitations.data?.length || invitations.isError) ? (
        <section aria-labelledby="invitations-heading" className="stack-sm">
          <h2 id="invitations-heading">Pending invitations</h2>
          {invitations.isError ? (
            <Alert tone="danger" title="Could not load invitations">
              {errorMessage(invitations.error)}
            </Alert>
          ) : null}
          {invitations.data ? <InvitationsTable slug={slug} invitations={invitations.data} /> : null}
        </section>
      ) : null}
      <InvitationLinkDialog created={created} onClose={() => setCreated(null)} />
    </div>
  )
}
