import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateOrganization } from '../../data/organizations/useCreateOrganization'

export function CreateOrganizationForm() {
  const navigate = useNavigate()
  const toast = useToast()
  const create = useCreateOrganization()
  const [name, setName] = useState('')
  const [error, setError] = useState<string>()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
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
          navigate(`/org/${organization.slug}`)
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
          <Button type="submit" variant="primary" loading={create.isPending}>
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
          onChange={(event) => setName(event.target.value)}
          error={error}
        />
      </Card>
    </form>
  )
}
