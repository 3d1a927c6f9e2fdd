import { API_KEY_TEXTS, PostgrestConfigUpdateBody, type PostgrestConfigResponse } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { usePostgrestConfig } from '../../data/postgrest-config/usePostgrestConfig'
import { useUpdatePostgrestConfig } from '../../data/postgrest-config/useUpdatePostgrestConfig'

interface Draft {
  db_schema: string
  db_extra_search_path: string
  max_rows: string
  db_pool: string
}

const draftOf = (config: PostgrestConfigResponse): Draft => ({
  db_schema: config.db_schema,
  db_extra_search_path: config.db_extra_search_path,
  max_rows: String(config.max_rows),
  db_pool: config.db_pool === null ? '' : String(config.db_pool),
})

const PERMISSION_TEXT = 'You need additional permissions to change the data API settings'

/**
 * 'Data API settings': what the project's REST and GraphQL APIs serve (PostgREST's db-schemas,
 * db-extra-search-path, db-max-rows, db-pool). Saving restarts the project's PostgREST with them.
 */
export function DataApiSettingsCard({ projectRef, canUpdate }: { projectRef: string; canUpdate: boolean }) {
  const config = usePostgrestConfig(projectRef)
  if (config.isError) {
    return (
      <Card title="Data API settings">
        <Alert tone="danger" title={API_KEY_TEXTS.fetchConfigFailed}>
          {errorMessage(config.error)}
        </Alert>
      </Card>
    )
  }
  if (!config.data) return <Card title="Data API settings" description="Loading…" />
  // Keyed by the stored values: a save (or another member's) starts the form over from them.
  return <DataApiSettingsForm key={JSON.stringify(draftOf(config.data))} projectRef={projectRef} stored={config.data} canUpdate={canUpdate} />
}

function DataApiSettingsForm({ projectRef, stored, canUpdate }: { projectRef: string; stored: PostgrestConfigResponse; canUpdate: boolean }) {
  const toast = useToast()
  const update = useUpdatePostgrestConfig()
  const [draft, setDraft] = useState<Draft>(() => draftOf(stored))
  const [problem, setProblem] = useState<string | null>(null)
  const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(stored))
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value })

  const save = (event: FormEvent) => {
    event.preventDefault()
    const change = PostgrestConfigUpdateBody.safeParse({
      db_schema: draft.db_schema,
      db_extra_search_path: draft.db_extra_search_path,
      max_rows: Number(draft.max_rows),
      ...(draft.db_pool.trim() ? { db_pool: Number(draft.db_pool) } : {}),
    })
    if (!change.success) {
      setProblem(change.error.issues[0]?.message ?? 'Check the values')
      return
    }
    setProblem(null)
    update.mutate(
      { ref: projectRef, change: change.data },
      {
        onSuccess: () => toast.success('Data API settings saved'),
        onError: (error) => toast.error(`Failed to update the data API settings: ${errorMessage(error)}`),
      },
    )
  }

  return (
    <Card title="Data API settings" description="What the project's REST and GraphQL APIs serve. Saving restarts the REST API with the new settings.">
      <form className="stack" onSubmit={save}>
        <TextField label="Exposed schemas" hint="Comma-separated schemas the API serves, e.g. public, shop" value={draft.db_schema} onChange={set('db_schema')} disabled={!canUpdate} />
        <TextField
          label="Extra search path"
          hint="Schemas added to the search path of every request, e.g. public, extensions"
          value={draft.db_extra_search_path}
          onChange={set('db_extra_search_path')}
          disabled={!canUpdate}
        />
        <TextField label="Max rows" hint="The most rows one request returns" type="number" min={0} max={1_000_000} value={draft.max_rows} onChange={set('max_rows')} disabled={!canUpdate} />
        <TextField label="Pool size" hint="Database connections of the REST API; empty for the platform's choice" type="number" min={0} max={1000} value={draft.db_pool} onChange={set('db_pool')} disabled={!canUpdate} />
        {problem ? (
          <Alert tone="danger" title="Check the settings">
            {problem}
          </Alert>
        ) : null}
        <div className="api-row">
          <span className="muted">{changed ? 'Unsaved changes' : ''}</span>
          <Button type="submit" variant="primary" disabled={!canUpdate || !changed || update.isPending} disabledReason={!canUpdate ? PERMISSION_TEXT : undefined} loading={update.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Card>
  )
}
