import { Plus, Zap } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useDatabaseTriggers } from '../../data/database-objects/useDatabaseTriggers'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { CreateTriggerDialog } from './CreateTriggerDialog'
import { matchesSearch, SchemaSearchToolbar } from '../../components/project/SchemaSearchToolbar'
import { buildDropTrigger, buildSetTriggerEnabled } from './sql/triggers'
import { TriggersTable } from './TriggersTable'
import { READ_ONLY_REASON, useObjectsPage } from './useObjectsPage'
import './database-objects.css'

/** /project/{ref}/database/triggers: the triggers on a schema's tables; create, enable or disable, delete. */
export function DatabaseTriggersPage() {
  useProjectPageTitle('Triggers')
  const { ref, canWrite, schema, setSchema, preview, previewDialog, readOnlyNotice } = useObjectsPage()
  const [search, setSearch] = useState('')
  const [creating, setCreating] = useState(false)
  const triggers = useDatabaseTriggers(ref, schema)
  const shown = useMemo(
    () => (triggers.data ?? []).filter((trigger) => matchesSearch(search, trigger.name, trigger.table, trigger.function_name)),
    [triggers.data, search],
  )

  return (
    <div className="page">
      <PageHeader
        title="Triggers"
        description="Triggers run a function before or after rows of a table are inserted, updated or deleted."
        actions={
          <Button
            variant="primary"
            icon={<Plus size={14} aria-hidden="true" />}
            disabled={!canWrite}
            disabledReason={canWrite ? undefined : READ_ONLY_REASON}
            onClick={() => setCreating(true)}
          >
            Create a new trigger
          </Button>
        }
      />
      <div className="stack">
        {readOnlyNotice}
        <SchemaSearchToolbar
          projectRef={ref}
          schema={schema}
          onSchemaChange={setSchema}
          search={search}
          onSearchChange={setSearch}
          searchLabel="Search for a trigger"
        />
        <QueryState
          query={triggers}
          loadingLabel="Loading triggers…"
          errorTitle="Could not load the triggers"
          isEmpty={shown.length === 0}
          empty={
            <Card>
              <EmptyState
                icon={<Zap size={22} />}
                title={search.trim() ? 'No trigger matches your search' : `No triggers in schema ${schema}`}
                description={search.trim() ? `Nothing named like "${search.trim()}".` : 'Create one to run a function when a table changes.'}
              />
            </Card>
          }
        >
          <TriggersTable
            triggers={shown}
            canWrite={canWrite}
            onToggle={(trigger, enabled) =>
              preview({
                title: `${enabled ? 'Enable' : 'Disable'} trigger ${trigger.name}`,
                sql: buildSetTriggerEnabled(trigger, enabled),
                done: `Trigger ${trigger.name} ${enabled ? 'enabled' : 'disabled'}`,
              })
            }
            onDelete={(trigger) =>
              preview({ title: `Delete trigger ${trigger.name}`, sql: buildDropTrigger(trigger), done: `Trigger ${trigger.name} deleted`, destructive: true })
            }
          />
        </QueryState>
      </div>
      {creating ? (
        <CreateTriggerDialog
          projectRef={ref}
          schema={schema}
          onClose={() => setCreating(false)}
          onReview={(sql, spec) => {
            setCreating(false)
            preview({ title: `Create trigger ${spec.name}`, sql, done: `Trigger ${spec.name} created` })
          }}
        />
      ) : null}
      {previewDialog}
    </div>
  )
}
