import { INSTALLATION_TEXTS, mayCreateOrganization } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateOrganization } from '../../data/organizations/useCreateOrganization'
import { useInstallationSettings } from '../../data/organizations/useInstallationSettings'

export function CreateOrganizationForm() {
  const navigate = useNavigate()
  const toast = useToast()
  const create = useCreateOrganization()
  // An installation setting: every account, or only the installation's owner (the server decides too).
  const settings = useInstallationSettings()
  const allowed = settings.data ? mayCreateOrganization(settings.data) : false
  const reason = settings.data && !allowed ? INSTALLATION_TEXTS.createOrganization : undefined
  const [name, setName] = useState('')
  const [error, setError] = useState<string>()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!allowed) return
    if (!name.trim()) {
      setError('Organization name cannot be empty')
      return
    }
    setError(undefined)
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (organization) => {
          toast.success(`Created organization ${organization.name}`)
          setName('')
          void navigate(`/org/${organization.slug}`)
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="create-org-title">
      <Card
        title={<span id="create-org-title">Create an organization</span>}
        description="You become its owner and can add members and projects."
        footer={
          <Button
            type="submit"
            variant="primary"
            loading={create.isPending}
            disabled={!allowed}
            disabledReason={reason}
          >
            Create organization
          </Button>
        }
      >
        <TextField
          label="Organization name"
          name="name"
          placeholder="Acme Inc."
          maxLength={100}
          value={name}
          disabled={!allowed}
          onChange={(event) => setName(event.target.value)}
          error={error}
        />
      </Card>
    </form>
  )
}
