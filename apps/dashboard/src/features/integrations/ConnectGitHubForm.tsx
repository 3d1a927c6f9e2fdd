import { CreateGitHubConnectionBody, type GitHubConnection } from '@stratum/contracts'
import { Plug } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField, TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateGitHubConnectionMutation } from '../../data/github'
import { useProjects } from '../../data/projects/useProjects'

interface ConnectGitHubFormProps {
  slug: string
  organizationId: number | undefined
  /** The organization's connections: a project has one, so connected projects are not offered. */
  connections: GitHubConnection[]
}

type FieldName = 'project_ref' | 'repository' | 'token' | 'workdir'
const EMPTY = { project_ref: '', repository: '', token: '', workdir: '' }

/** Connects a project of the organization to a repository; the server asks GitHub with the token before it stores anything. */
export function ConnectGitHubForm({ slug, organizationId, connections }: ConnectGitHubFormProps) {
  const toast = useToast()
  const projects = useProjects(slug)
  const connect = useCreateGitHubConnectionMutation()
  const [draft, setDraft] = useState(EMPTY)
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({})

  const connected = new Set(connections.map((connection) => connection.project.ref))
  const available = (projects.data ?? []).filter((project) => !connected.has(project.ref))
  // The first project free to connect until the user picks one.
  const projectRef = draft.project_ref || available[0]?.ref || ''

  const change = (field: FieldName, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!organizationId) return
    const parsed = CreateGitHubConnectionBody.safeParse({
      organization_id: organizationId,
      project_ref: projectRef,
      repository: draft.repository.trim(),
      token: draft.token,
      ...(draft.workdir.trim() ? { workdir: draft.workdir.trim() } : {}),
    })
    if (!parsed.success) {
      const found: Partial<Record<FieldName, string>> = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName
        found[field] ??= field === 'project_ref' ? 'Choose a project' : issue.message
      }
      setErrors(found)
      return
    }
    setErrors({})
    connect.mutate(parsed.data, {
      onSuccess: (created) => {
        setDraft(EMPTY)
        toast.success(`Connected ${created.project.name} to ${created.repository.name}`)
      },
      onError: (failure) => toast.error('Failed to connect to GitHub', errorMessage(failure)),
    })
  }

  const nothingToConnect = projects.isSuccess && available.length === 0
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Connect a repository">
      <Card
        title="Connect a repository"
        description="The token needs read access to the repository's contents (a fine-grained token with Contents: read is enough). It is stored encrypted and never shown again."
        footer={
          <Button
            type="submit"
            variant="primary"
            icon={<Plug size={14} aria-hidden="true" />}
            loading={connect.isPending}
            disabled={nothingToConnect}
            disabledReason="Every project of this organization is connected already"
          >
            Connect repository
          </Button>
        }
      >
        <div className="connect-github-grid">
          <SelectField
            label="Project"
            value={projectRef}
            disabled={nothingToConnect}
            error={errors.project_ref}
            onChange={(event) => change('project_ref', event.target.value)}
          >
            {nothingToConnect ? <option value="">No project left to connect</option> : null}
            {available.map((project) => (
              <option key={project.ref} value={project.ref}>
                {project.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Repository"
            name="repository"
            placeholder="owner/repo"
            autoComplete="off"
            spellCheck={false}
            value={draft.repository}
            error={errors.repository}
            onChange={(event) => change('repository', event.target.value)}
          />
          <TextField
            label="Token"
            name="token"
            type="password"
            placeholder="github_pat_… or ghp_…"
            autoComplete="off"
            value={draft.token}
            error={errors.token}
            onChange={(event) => change('token', event.target.value)}
          />
          <TextField
            label="Working directory"
            name="workdir"
            placeholder="."
            hint="Optional: the folder holding supabase/, if not the repository's root"
            autoComplete="off"
            spellCheck={false}
            value={draft.workdir}
            error={errors.workdir}
            onChange={(event) => change('workdir', event.target.value)}
          />
        </div>
      </Card>
    </form>
  )
}
