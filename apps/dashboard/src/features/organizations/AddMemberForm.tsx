import { ORG_ROLES, PERMISSION_TEXTS, ROLE_LABELS, canAssignRole, type AddedMember, type OrgRole } from '@stratum/contracts'
import { UserPlus } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField, TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useAddMember } from '../../data/members/useAddMember'
import { useOrgRole } from '../../data/profile/useCan'

interface AddMemberFormProps {
  slug: string
  canManage: boolean
  onAdded: (added: AddedMember) => void
}

export function AddMemberForm({ slug, canManage, onAdded }: AddMemberFormProps) {
  const toast = useToast()
  const myRole = useOrgRole(slug)
  const add = useAddMember()
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
        onSuccess: (added) => {
          setEmail('')
          if (added.one_time_password) onAdded(added)
          else toast.success(`${added.member.primary_email} was added as ${ROLE_LABELS[added.member.role]}`)
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add member">
      <Card
        title="Add a member"
        description="People who already have a Stratum account join at once. For a new address an account is created with a one-time password, shown to you once."
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
          <SelectField label="Role" value={role} disabled={!canManage} onChange={(event) => setRole(event.target.value as OrgRole)}>
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
