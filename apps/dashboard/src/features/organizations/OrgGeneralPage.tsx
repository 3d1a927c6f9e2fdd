import { PERMISSION_TEXTS } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { useParams } from 'react-router'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useOrganization } from '../../data/organizations/useOrganization'
import { useUpdateOrganization } from '../../data/organizations/useUpdateOrganization'
import { useCan } from '../../data/profile/useCan'
import { usePageTitle } from '../../lib/usePageTitle'
import { CopyField } from '../../components/ui/CopyField'
import { AssistantOptInCard } from './AssistantOptInCard'

export function OrgGeneralPage() {
  const { slug = '' } = useParams()
  const { data: organization } = useOrganization(slug)
  usePageTitle(['General', organization?.name])
  const canUpdate = useCan(slug, 'organizations.update')
  const update = useUpdateOrganization()
  const toast = useToast()
  // null = untouched: show the saved name until the user types.
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<string>()
  const name = draft ?? organization?.name ?? ''

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!canUpdate) return
    if (!name.trim()) {
      setError('Organization name cannot be empty')
      return
    }
    setError(undefined)
    update.mutate(
      { slug, name: name.trim() },
      {
        onSuccess: (saved) => {
          setDraft(null)
          toast.success(`Organization renamed to ${saved.name}`)
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    )
  }

  const unchanged = name.trim() === organization?.name
  return (
    <div className="stack">
      <form onSubmit={onSubmit} noValidate aria-label="Organization details">
        <Card
          title="Organization details"
          footer={
            <>
              {draft !== null && !unchanged ? (
                <Button onClick={() => setDraft(null)} disabled={update.isPending}>
                  Cancel
                </Button>
              ) : null}
              <Button
                type="submit"
                variant="primary"
                loading={update.isPending}
                disabled={!canUpdate || unchanged}
                disabledReason={canUpdate ? undefined : PERMISSION_TEXTS.updateOrganization}
              >
                Save
              </Button>
            </>
          }
        >
          <TextField
            label="Organization name"
            name="name"
            maxLength={100}
            value={name}
            readOnly={!canUpdate}
            onChange={(event) => setDraft(event.target.value)}
            error={error}
            hint={canUpdate ? undefined : PERMISSION_TEXTS.updateOrganization}
          />
          <CopyField label="Organization slug" value={slug} hint="Used in URLs and in the API (organization_slug). It does not change on rename." />
        </Card>
      </form>
      {organization ? <AssistantOptInCard organization={organization} /> : null}
    </div>
  )
}
