import { PERMISSION_TEXTS, type AddedMember } from '@stratum/contracts'
import { useState } from 'react'
import { useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useMembers } from '../../data/members/useMembers'
import { useOrganization } from '../../data/organizations/useOrganization'
import { useCan } from '../../data/profile/useCan'
import { usePageTitle } from '../../lib/usePageTitle'
import { AddMemberForm } from './AddMemberForm'
import { MembersTable } from './MembersTable'
import { OneTimePasswordDialog } from './OneTimePasswordDialog'
import './organizations.css'

export function OrgTeamPage() {
  const { slug = '' } = useParams()
  const { data: organization } = useOrganization(slug)
  usePageTitle(['Team', organization?.name])
  const members = useMembers(slug)
  const canManage = useCan(slug, 'members.write')
  const [added, setAdded] = useState<AddedMember | null>(null)

  return (
    <div className="stack">
      {canManage ? null : <Alert tone="info">{PERMISSION_TEXTS.manageMembers}.</Alert>}
      <AddMemberForm slug={slug} canManage={canManage} onAdded={setAdded} />
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
      <OneTimePasswordDialog added={added} onClose={() => setAdded(null)} />
    </div>
  )
}
