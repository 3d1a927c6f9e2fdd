import { ORG_ROLES, PERMISSION_TEXTS, ROLE_LABELS, canAssignRole, type Member, type OrgRole } from '@stratum/contracts'
import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { Select } from '../../components/ui/Field'
import { Tooltip } from '../../components/ui/Tooltip'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useUpdateMemberRole } from '../../data/members/useUpdateMemberRole'
import { useOrgRole } from '../../data/profile/useCan'
import { useProfile } from '../../data/profile/useProfile'
import { formatDate } from '../../lib/format'
import { RemoveMemberDialog } from './RemoveMemberDialog'
import { TableHead } from '../../components/ui/TableHead'

interface MembersTableProps {
  slug: string
  members: Member[]
  canManage: boolean
}

export function MembersTable({ slug, members, canManage }: MembersTableProps) {
  const toast = useToast()
  const { data: me } = useProfile()
  const myRole = useOrgRole(slug)
  const updateRole = useUpdateMemberRole()
  const [removing, setRemoving] = useState<Member | null>(null)

  const changeRole = (member: Member, role: OrgRole) =>
    updateRole.mutate(
      { slug, userId: member.user_id, role },
      {
        onSuccess: () => toast.success(`${member.primary_email} is now ${ROLE_LABELS[role]}`),
        onError: (error) => toast.error('Failed to update the role', errorMessage(error)),
      },
    )

  return (
    <div className="card card-body-flush">
      <table className="table">
        <TableHead columns={['Member', 'Role', 'Joined', { hidden: 'Actions' }]} />
        <tbody>
          {members.map((member) => {
            const isMe = member.user_id === me?.id
            // Only an owner may change (or remove) another owner.
            const editable = canManage && myRole !== undefined && canAssignRole(myRole, member.role)
            const reason = canManage ? PERMISSION_TEXTS.changeOwner : PERMISSION_TEXTS.manageMembers
            return (
              <tr key={member.user_id}>
                <td>
                  <div className="member-name">
                    <span>
                      {member.username} {isMe ? <Badge>You</Badge> : null}
                    </span>
                    <span className="member-email">{member.primary_email}</span>
                  </div>
                </td>
                <td>
                  {editable ? (
                    <Select
                      aria-label={`Role of ${member.primary_email}`}
                      value={member.role}
                      disabled={updateRole.isPending}
                      onChange={(event) => changeRole(member, event.target.value as OrgRole)}
                    >
                      {ORG_ROLES.map((role) => (
                        <option key={role} value={role} disabled={!myRole || !canAssignRole(myRole, role)}>
                          {ROLE_LABELS[role]}
                        </option>
                      ))}
                    </Select>
                  ) : (
                    <Tooltip content={reason}>
                      <span className="role-readonly" tabIndex={0}>
                        {ROLE_LABELS[member.role]}
                      </span>
                    </Tooltip>
                  )}
                </td>
                <td className="muted nowrap">{formatDate(member.joined_at)}</td>
                <td className="table-actions">
                  <IconButton
                    size="sm"
                    label={`Remove ${member.primary_email}`}
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    disabled={!editable}
                    disabledReason={reason}
                    onClick={() => setRemoving(member)}
                  />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <RemoveMemberDialog slug={slug} member={removing} onClose={() => setRemoving(null)} />
    </div>
  )
}
