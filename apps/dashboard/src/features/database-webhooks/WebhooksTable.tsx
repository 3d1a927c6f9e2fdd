import { Pencil, Trash2 } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TableHead } from '../../components/ui/TableHead'
import type { DatabaseWebhook } from '../../data/database-webhooks/types'
import { EVENT_LABELS, WEBHOOK_TEXTS } from './texts'

interface WebhooksTableProps {
  hooks: DatabaseWebhook[]
  /** `${project URL}/functions/v1/`: URLs below it are shown as the project's edge functions. */
  functionsUrl: string | null
  canWrite: boolean
  onEdit: (hook: DatabaseWebhook) => void
  onDelete: (hook: DatabaseWebhook) => void
}

/** The function's slug when the hook calls an edge function of this project. */
export function functionSlugOf(url: string, functionsUrl: string | null): string | null {
  if (!functionsUrl || !url.startsWith(functionsUrl)) return null
  const slug = url.slice(functionsUrl.length)
  return /^[A-Za-z][A-Za-z0-9_-]*$/.test(slug) ? slug : null
}

/** One row per webhook: what fires it and where its request goes. */
export function WebhooksTable({ hooks, functionsUrl, canWrite, onEdit, onDelete }: WebhooksTableProps) {
  return (
    <Card flush>
      <table className="table webhooks-table" aria-label="Database webhooks">
        <TableHead columns={['Name', 'Table', 'Events', 'Target', 'Method', { hidden: 'Actions' }]} />
        <tbody>
          {hooks.map((hook) => {
            const slug = functionSlugOf(hook.url, functionsUrl)
            return (
              <tr key={hook.id}>
                <td className="mono nowrap">
                  {hook.name} {hook.enabled ? null : <Badge tone="warning">Disabled</Badge>}
                </td>
                <td className="mono nowrap">
                  {hook.schema}.{hook.table}
                </td>
                <td>
                  <div className="webhook-badges">
                    {hook.events.map((event) => (
                      <Badge key={event} tone="info">
                        {EVENT_LABELS[event]}
                      </Badge>
                    ))}
                  </div>
                </td>
                <td className="webhooks-target">
                  {slug ? (
                    <span>
                      <Badge tone="neutral">Edge Function</Badge> <span className="mono">{slug}</span>
                    </span>
                  ) : (
                    <span className="mono">{hook.url}</span>
                  )}
                </td>
                <td className="mono">{hook.method}</td>
                <td className="webhooks-actions">
                  <IconButton
                    label={`Edit webhook ${hook.name}`}
                    icon={<Pencil size={14} />}
                    disabled={!canWrite}
                    disabledReason={WEBHOOK_TEXTS.editPermission}
                    onClick={() => onEdit(hook)}
                  />
                  <IconButton
                    label={`Delete webhook ${hook.name}`}
                    icon={<Trash2 size={14} />}
                    disabled={!canWrite}
                    disabledReason={WEBHOOK_TEXTS.deletePermission}
                    onClick={() => onDelete(hook)}
                  />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </Card>
  )
}
