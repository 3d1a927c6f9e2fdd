import {
  DEFAULT_COMPUTE_SIZE,
  DEFAULT_POSTGRES_MAJOR,
  PERMISSION_TEXTS,
  POSTGRES_MAJORS,
  type ComputeSize,
  type PostgresMajor,
} from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField, TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { errorMessage } from '../../data/api'
import { useOrganizations } from '../../data/organizations/useOrganizations'
import { usePermissions } from '../../data/profile/usePermissions'
import { useAvailableVersions } from '../../data/projects/availableVersions'
import { useCreateProject } from '../../data/projects/useCreateProject'
import { usePageTitle } from '../../lib/usePageTitle'
import { ComputeSizePicker } from './ComputeSizePicker'
import { DatabasePasswordField } from './DatabasePasswordField'
import './new-project.css'

interface Problems {
  name?: string
  db_pass?: string
}

function validate(name: string, password: string): Problems {
  return {
    name: name.trim() ? (name.trim().length > 64 ? 'Project name must be at most 64 characters' : undefined) : 'Project name cannot be empty',
    db_pass:
      password.length < 8
        ? 'Database password must be at least 8 characters'
        : password.length > 128
          ? 'Database password must be at most 128 characters'
          : undefined,
  }
}

export function NewProjectPage() {
  const { slug = '' } = useParams()
  const navigate = useNavigate()
  const organizations = useOrganizations()
  const permissions = usePermissions()
  const create = useCreateProject()

  const [orgSlug, setOrgSlug] = useState(slug)
  const [name, setName] = useState('')
  const [version, setVersion] = useState<PostgresMajor>(DEFAULT_POSTGRES_MAJOR)
  const [size, setSize] = useState<ComputeSize>(DEFAULT_COMPUTE_SIZE)
  const [password, setPassword] = useState('')
  const [problems, setProblems] = useState<Problems>({})

  const organization = organizations.data?.find((org) => org.slug === orgSlug)
  // The versions installed on this platform (the server's list); all known ones until it answers.
  const versions = useAvailableVersions(orgSlug || undefined)
  const majors = versions.data
    ? versions.data.available_versions.map((entry) => entry.postgres_engine as PostgresMajor).filter((major) => POSTGRES_MAJORS.includes(major))
    : [...POSTGRES_MAJORS].sort((a, b) => Number(b) - Number(a))
  usePageTitle(['New project', organization?.name])
  const canCreate = Boolean(
    permissions.data?.find((entry) => entry.organization_slug === orgSlug)?.permissions.includes('projects.create'),
  )

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!canCreate) return
    const found = validate(name, password)
    setProblems(found)
    if (found.name || found.db_pass) return
    create.mutate(
      {
        name: name.trim(),
        organization_slug: orgSlug,
        db_pass: password,
        postgres_engine: version,
        desired_instance_size: size,
      },
      { onSuccess: (project) => navigate(`/project/${project.ref}`) },
    )
  }

  return (
    <div className="page page-narrow">
      <PageHeader
        title="Create a new project"
        description="A project is a Postgres server of its own, with its own data directory, port and roles."
      />
      <form onSubmit={onSubmit} noValidate aria-label="New project">
        <Card
          footer={
            <>
              <Link className="btn btn-secondary btn-md" to={orgSlug ? `/org/${orgSlug}` : '/organizations'}>
                Cancel
              </Link>
              <Button
                type="submit"
                variant="primary"
                loading={create.isPending}
                disabled={!canCreate}
                disabledReason={PERMISSION_TEXTS.createProject}
              >
                Create new project
              </Button>
            </>
          }
        >
          <SelectField
            label="Organization"
            name="organization_slug"
            value={orgSlug}
            onChange={(event) => setOrgSlug(event.target.value)}
            hint={organizations.isPending ? 'Loading organizations…' : undefined}
            error={!permissions.isPending && orgSlug && !canCreate ? PERMISSION_TEXTS.createProject : undefined}
          >
            {organization || organizations.isPending ? null : <option value={orgSlug}>{orgSlug || 'Choose an organization'}</option>}
            {organizations.data?.map((org) => (
              <option key={org.slug} value={org.slug}>
                {org.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Project name"
            name="name"
            autoComplete="off"
            maxLength={64}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={problems.name}
          />
          <SelectField
            label="Postgres version"
            name="postgres_engine"
            value={version}
            onChange={(event) => setVersion(event.target.value as PostgresMajor)}
            hint="The major version cannot be changed later without an upgrade."
          >
            {majors.map((major) => (
              <option key={major} value={major}>
                Postgres {major}
                {major === DEFAULT_POSTGRES_MAJOR ? ' (default)' : ''}
              </option>
            ))}
          </SelectField>
          <ComputeSizePicker value={size} onChange={setSize} />
          <DatabasePasswordField value={password} onChange={setPassword} error={problems.db_pass} />
          {create.isError ? (
            <Alert tone="danger" title="Could not create the project">
              {errorMessage(create.error)}
            </Alert>
          ) : null}
        </Card>
      </form>
    </div>
  )
}
