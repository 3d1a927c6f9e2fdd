import type { PgMetaTrigger } from '@stratum/contracts'
import { Trash2 } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { Switch } from '../../components/ui/Switch'
import { TableHead } from '../../components/ui/TableHead'
import { READ_ONLY_REASON } from '../database-pages'

interface TriggersTableProps {
  triggers: PgMetaTrigger[]
  canWrite: boolean
  onToggle: (trigger: PgMetaTrigger, enabled: boolean) => void
  onDelete: (trigger: PgMetaTrigger) => void
}

export const isTriggerEnabled = (trigger: PgMetaTrigger) => trigger.enabled_mode !== 'DISABLED'

/** One row per trigger: its table, function, events, timing and level, an on/off switch and delete. */
export function TriggersTable({ triggers, canWrite, onToggle, onDelete }: TriggersTableProps) {
  return (
    <Card flush>
      <table className="table dbo-table" aria-label="Triggers">
        <TableHead columns={['Name', 'Table', 'Function', 'Events', 'Timing', 'Enabled', { hidden: 'Actions' }]} />
        <tbody>
          {triggers.map((trigger) => {
            const enabled = isTriggerEnabled(trigger)
            return (
              <tr key={trigger.id}>
                <td className="mono nowrap">{trigger.name}</td>
                <td className="mono nowrap">{trigger.table}</td>
                <td className="mono nowrap">
                  {trigger.function_schema}.{trigger.function_name}
                </td>
                <td>
                  <div className="dbo-badges">
                    {trigger.events.map((event) => (
                      <Badge key={event} tone="info">
                        {event}
                      </Badge>
                    ))}
                  </div>
                </td>
                <td className="nowrap">
                  {trigger.activation} · {trigger.orientation === 'ROW' ? 'each row' : 'each statement'}
                </td>
                <td>
                  <Switch
                    label={`${enabled ? 'Disable' : 'Enable'} trigger ${trigger.name}`}
                    checked={enabled}
                    disabled={!canWrite}
                    disabledReason={canWrite ? undefined : READ_ONLY_REASON}
                    onCheckedChange={(next) => onToggle(trigger, next)}
                  />
                </td>
                <td className="dbo-actions">
                  <IconButton
                    size="sm"
                    icon={<Trash2 size={14} />}
                    label={`Delete trigger ${trigger.name}`}
                    disabled={!canWrite}
                    disabledReason={canWrite ? undefined : READ_ONLY_REASON}
                    onClick={() => onDelete(trigger)}
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
