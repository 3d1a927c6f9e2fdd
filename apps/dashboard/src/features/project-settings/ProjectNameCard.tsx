import { PERMISSION_TEXTS, type Project } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useRenameProject } from '../../data/projects/useRenameProject'

/** The project's name (Owners and Administrators rename it; the ref never changes) and its ID. */
export function ProjectNameCard({ project }: { project: Project }) {
  const canRename = useCan(project.organization_slug, 'projects.update')
  const rename = useRenameProject()
  const toast = useToast()
  // null = untouched: the saved name shows until the user types.
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<string>()
  const name = draft ?? project.name
  const unchanged = name.trim() === project.name

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!canRename || unchanged) return
    if (!name.trim()) return setError('Project name cannot be empty')
    setError(undefined)
    rename.mutate(
      { ref: project.ref, name: name.trim() },
      {
        onSuccess: (saved) => {
          setDraft(null)
          toast.success(`Project renamed to ${saved.name}`)
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Project details">
      <Card
        title="General"
        footer={
          <>
            {draft !== null && !unchanged ? (
              <Button onClick={() => setDraft(null)} disabled={rename.isPending}>
                Cancel
              </Button>
            ) : null}
            <Button
              type="submit"
              variant="primary"
              loading={rename.isPending}
              disabled={!canRename || unchanged}
              disabledReason={canRename ? undefined : PERMISSION_TEXTS.renameProject}
            >
              Save
            </Button>
          </>
        }
      >
        <TextField
          label="Project name"
          name="name"
          maxLength={256}
          value={name}
          readOnly={!canRename}
          onChange={(event) => setDraft(event.target.value)}
          error={error}
          hint={canRename ? undefined : PERMISSION_TEXTS.renameProject}
        />
        <CopyField label="Project ID" value={project.ref} hint="The project ref: used in URLs and by the API. It does not change on rename." />
      </Card>
    </form>
  )
}
