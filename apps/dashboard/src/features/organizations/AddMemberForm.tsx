import {
  ORG_ROLES,
  PERMISSION_TEXTS,
  ROLE_LABELS,
  canAssignRole,
  type CreatedInvitation,
  type OrgRole,
} from '@stratum/contracts'
import { UserPlus } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField, TextField } from '../../components/ui/Field'
import { errorMessage } from '../../data/api'
import { useInviteMember } from '../../data/members/useInviteMember'
import { useOrgRole } from '../../data/profile/useCan'

interface AddMemberFormProps {
  slug: string
  canManage: boolean
  onInvited: (created: CreatedInvitation) => void
}

/** Adding a member creates an invitation; its one-time link is shown once (InvitationLinkDialog). */
export function AddMemberForm({ slug, canManage, onInvited }: AddMemberFormProps) {
  const myRole = useOrgRole(slug)
  const add = useInviteMember()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<OrgRole>('developer')
  const [error, setError] = useState<string>()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!canManage) return
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) {
      setError('Enter a valid email address')
      return
    }
    setError(undefined)
    add.mutate(
      { slug, email: email.trim(), role },
      {
        onSuccess: (created) => {
          setEmail('')
          onInvited(created)
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add member">
      <Card
        title="Add a member"
        description="Stratum sends no mail: you get a one-time invitation link to hand over. Someone new sets their own password on it; someone with an account signs in and accepts. Nobody joins until they accept."
      >
        <div className="add-member-row">
          <TextField
            label="Email"
            type="email"
            name="email"
            placeholder="name@example.com"
            value={email}
            disabled={!canManage}
            onChange={(event) => setEmail(event.target.value)}
            error={error}
          />
          <SelectField
            label="Role"
            value={role}
            disabled={!canManage}
            onChange={(event) => setRole(event.target.value as OrgRole)}
          >
            {ORG_ROLES.map((option) => (
              <option key={option} value={option} disabled={myRole ? !canAssignRole(myRole, option) : false}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </SelectField>
          <div className="add-member-submit">
            <Button
              type="submit"
              variant="primary"
              icon={<UserPlus size={14} aria-hidden="true" />}
              loading={add.isPending}
              disabled={!canManage}
              disabledReason={PERMISSION_TEXTS.manageMembers}
            >
              Add member
            </Button>
          </div>
        </div>
      </Card>
    </form>
  )
}
