import { ProjectAuthSettingsUpdate, type ProjectAuthSettings } from '@stratum/contracts'
import { useState, type FormEvent, type ReactNode } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useAuthConfig, useUpdateAuthConfig } from '../../data/project-auth/useAuthConfig'
import { AUTH_TEXTS } from './texts'

export type Draft = Record<string, string | boolean>

/** How one settings card reads and writes its part of the auth settings. */
export interface SettingsSection {
  title: string
  description: string
  /** The form's values from the stored settings (strings for text inputs, booleans for checkboxes). */
  toDraft: (settings: ProjectAuthSettings) => Draft
  /** The change to send for a draft (validated with the contract before it is sent). */
  toChange: (draft: Draft) => Record<string, unknown>
  fields: (draft: Draft, set: (name: string, value: string | boolean) => void, disabled: boolean) => ReactNode
}

/** A card of auth settings: loads them, keeps a draft, validates with the contract, saves with a toast. */
export function AuthSettingsCard({ projectRef, canUpdate, section }: { projectRef: string; canUpdate: boolean; section: SettingsSection }) {
  const config = useAuthConfig(projectRef)
  if (config.isError) {
    return (
      <Card title={section.title}>
        <Alert tone="danger" title="Failed to retrieve the auth settings">
          {errorMessage(config.error)}
        </Alert>
      </Card>
    )
  }
  if (!config.data) return <Card title={section.title} description="Loading…" />
  const stored = section.toDraft(config.data)
  return <SettingsForm key={JSON.stringify(stored)} projectRef={projectRef} canUpdate={canUpdate} section={section} stored={stored} />
}

function SettingsForm({ projectRef, canUpdate, section, stored }: { projectRef: string; canUpdate: boolean; section: SettingsSection; stored: Draft }) {
  const toast = useToast()
  const update = useUpdateAuthConfig()
  const [draft, setDraft] = useState(stored)
  const [problem, setProblem] = useState<string | null>(null)
  const changed = JSON.stringify(draft) !== JSON.stringify(stored)
  const save = (event: FormEvent) => {
    event.preventDefault()
    const change = ProjectAuthSettingsUpdate.safeParse(section.toChange(draft))
    if (!change.success) {
      const issue = change.error.issues[0]
      setProblem(issue ? `${issue.path.join('.')}: ${issue.message}` : 'Check the values')
      return
    }
    setProblem(null)
    update.mutate(
      { ref: projectRef, change: change.data },
      {
        onSuccess: () => toast.success(`${section.title} saved`),
        onError: (error) => toast.error(`Failed to update the auth settings: ${errorMessage(error)}`),
      },
    )
  }
  return (
    <Card title={section.title} description={section.description} role="region" aria-label={section.title}>
      <form className="stack" onSubmit={save} noValidate>
        {section.fields(draft, (name, value) => setDraft({ ...draft, [name]: value }), !canUpdate)}
        {problem ? (
          <Alert tone="danger" title="Check the settings">
            {problem}
          </Alert>
        ) : null}
        <div className="auth-settings-actions">
          <span className="muted">{changed ? 'Unsaved changes' : ''}</span>
          <Button type="submit" variant="primary" disabled={!canUpdate || !changed} disabledReason={!canUpdate ? AUTH_TEXTS.settingsPermission : undefined} loading={update.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Card>
  )
}
