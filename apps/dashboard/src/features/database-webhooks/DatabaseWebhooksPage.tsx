import { useQueryClient } from '@tanstack/react-query'
import { Plus, Webhook } from 'lucide-react'
import { useRef, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { apiKeyOf, projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { databaseWebhookKeys } from '../../data/database-webhooks/keys'
import type { DatabaseWebhook } from '../../data/database-webhooks/types'
import { useDatabaseWebhooks, useWebhookTables } from '../../data/database-webhooks/useDatabaseWebhooks'
import { createWebhookSql, dropWebhookSql, updateWebhookSql } from '../../data/database-webhooks/webhookSql'
import { useFunctions } from '../../data/functions/useFunctions'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { SqlPreviewDialog, type PendingSql } from '../table-editor'
import { DeliveriesCard } from './DeliveriesCard'
import { WEBHOOK_TEXTS } from './texts'
import { WebhookEditorDialog, type WebhookForm } from './WebhookEditorDialog'
import { functionSlugOf, WebhooksTable } from './WebhooksTable'
import './webhooks.css'

const NEW_FORM: WebhookForm = {
  name: '',
  schema: '',
  table: '',
  events: ['INSERT'],
  target: 'http',
  slug: '',
  url: '',
  method: 'POST',
  headers: [['Content-type', 'application/json']],
  params: [],
  timeoutMs: 5000,
}

function formOf(hook: DatabaseWebhook, functionsUrl: string | null): WebhookForm {
  const slug = functionSlugOf(hook.url, functionsUrl)
  return {
    ...hook,
    target: slug ? 'function' : 'http',
    slug: slug ?? '',
    headers: Object.entries(hook.headers),
    params: Object.entries(hook.params),
  }
}

interface Editing {
  hook: DatabaseWebhook | null
  form: WebhookForm
  /** Bumped on every opening: the form starts again from `form`. */
  key: number
}

/**
 * /project/{ref}/integrations/webhooks: Supabase's database webhooks (row triggers calling
 * supabase_functions.http_request, sent by the platform after commit), with their latest deliveries. Every change
 * shows its SQL before it runs on the full connection; Read-only members browse.
 */
export function DatabaseWebhooksPage() {
  useProjectPageTitle('Database Webhooks')
  const { ref, project } = useCurrentProject()
  const queryClient = useQueryClient()
  const hooks = useDatabaseWebhooks(ref)
  const tables = useWebhookTables(ref)
  const functions = useFunctions(ref)
  const settings = useProjectSettings(ref)
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const functionsUrl = settings.data ? `${projectApiUrl(settings.data)}/functions/v1/` : null
  const [editing, setEditing] = useState<Editing | null>(null)
  const [showEditor, setShowEditor] = useState(false)
  const [pending, setPending] = useState<PendingSql>()
  const ran = useRef(false)

  const open = (hook: DatabaseWebhook | null, form: WebhookForm) => {
    setEditing((current) => ({ hook, form, key: (current?.key ?? 0) + 1 }))
    setShowEditor(true)
  }
  const refresh = () => void queryClient.invalidateQueries({ queryKey: databaseWebhookKeys.all(ref) })
  const review = (form: WebhookForm) => {
    const hook = editing?.hook ?? null
    // A function of this project is called with the project's anon key, as supabase-js calls it.
    const anonKey = apiKeyOf(settings.data, 'anon')
    const withAuth =
      form.target === 'function' && anonKey && !form.headers.some(([name]) => name.toLowerCase() === 'authorization')
        ? { ...form, headers: [...form.headers, ['Authorization', `Bearer ${anonKey}`] as [string, string]] }
        : form
    setEditing((current) => current && { ...current, form })
    setShowEditor(false)
    ran.current = false
    setPending({
      title: hook ? `Update webhook ${hook.name}` : `Create webhook ${form.name}`,
      sql: hook ? updateWebhookSql(hook, withAuth) : createWebhookSql(withAuth),
      done: hook ? `Successfully updated webhook ${form.name}` : `Successfully created new webhook ${form.name}`,
      onDone: () => {
        ran.current = true
        refresh()
      },
    })
  }
  const remove = (hook: DatabaseWebhook) => {
    ran.current = true
    setPending({ title: `Delete webhook ${hook.name}`, sql: dropWebhookSql(hook), done: `Successfully deleted ${hook.name}`, destructive: true, onDone: refresh })
  }
  const closePreview = () => {
    setPending(undefined)
    // Cancelled before it ran: back to the form, as it was.
    if (!ran.current && editing) setShowEditor(true)
    else setEditing(null)
  }

  const createButton = (
    <Button
      variant="primary"
      icon={<Plus size={14} aria-hidden="true" />}
      disabled={!canWrite}
      disabledReason={WEBHOOK_TEXTS.writePermission}
      onClick={() => open(null, NEW_FORM)}
    >
      Create a new hook
    </Button>
  )

  return (
    <div className="page">
      <PageHeader title="Database Webhooks" description={WEBHOOK_TEXTS.description} actions={createButton} />
      <div className="stack">
        {canWrite || !project ? null : (
          <Alert tone="info" live={false}>
            {WEBHOOK_TEXTS.writePermission}
          </Alert>
        )}
        {hooks.isPending ? (
          <LoadingState label="Loading webhooks…" />
        ) : hooks.isError ? (
          <QueryError query={hooks} title="Could not load the webhooks" />
        ) : hooks.data.length === 0 ? (
          <Card>
            <EmptyState icon={<Webhook size={22} />} title={WEBHOOK_TEXTS.emptyTitle} description={WEBHOOK_TEXTS.emptyDescription} />
          </Card>
        ) : (
          <WebhooksTable
            hooks={hooks.data}
            functionsUrl={functionsUrl}
            canWrite={canWrite}
            onEdit={(hook) => open(hook, formOf(hook, functionsUrl))}
            onDelete={remove}
          />
        )}
        <DeliveriesCard projectRef={ref} />
      </div>
      {editing ? (
        <WebhookEditorDialog
          key={editing.key}
          open={showEditor}
          editing={editing.hook?.name ?? null}
          initial={editing.form}
          tables={tables.data ?? []}
          functions={(functions.data ?? []).map((fn) => fn.slug)}
          functionsUrl={functionsUrl}
          onCancel={() => {
            setShowEditor(false)
            setEditing(null)
          }}
          onSubmit={review}
        />
      ) : null}
      <SqlPreviewDialog projectRef={ref} pending={pending} onClose={closePreview} />
    </div>
  )
}
