import { Zap } from 'lucide-react'
import { useMemo, useState } from 'react'
import { QueryState } from '../../components/ui/QueryState'
import { databaseObjectKeys } from '../../data/database-objects/keys'
import { useDatabaseTriggers } from '../../data/database-objects/useDatabaseTriggers'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { CreateTriggerDialog } from './CreateTriggerDialog'
import { matchesSearch } from '../../components/project/SchemaSearchToolbar'
import { DatabasePage, EmptyList, useDatabasePage, useSchemaSearch } from '../database-pages'
import { buildDropTrigger, buildSetTriggerEnabled } from './sql/triggers'
import { TriggersTable } from './TriggersTable'
import './database-objects.css'

/** /project/{ref}/database/triggers: the triggers on a schema's tables; create, enable or disable, delete. */
export function DatabaseTriggersPage() {
  useProjectPageTitle('Triggers')
  const page = useDatabasePage(databaseObjectKeys.all)
  const { ref, canWrite, preview } = page
  const schemaSearch = useSchemaSearch()
  const { schema, search } = schemaSearch
  const [creating, setCreating] = useState(false)
  const triggers = useDatabaseTriggers(ref, schema)
  const shown = useMemo(
    () => (triggers.data ?? []).filter((trigger) => matchesSearch(search, trigger.name, trigger.table, trigger.function_name)),
    [triggers.data, search],
  )

  return (
    <DatabasePage
      title="Triggers"
      description="Triggers run a function before or after rows of a table are inserted, updated or deleted."
      page={page}
      toolbar={{ state: schemaSearch, searchLabel: 'Search for a trigger' }}
      create={{ label: 'Create a new trigger', onClick: () => setCreating(true) }}
      dialogs={
        creating ? (
          <CreateTriggerDialog
            projectRef={ref}
            schema={schema}
            onClose={() => setCreating(false)}
            onReview={(sql, spec) => {
              setCreating(false)
              preview({ title: `Create trigger ${spec.name}`, sql, done: `Trigger ${spec.name} created` })
            }}
          />
        ) : null
      }
    >
      <QueryState
        query={triggers}
        loadingLabel="Loading triggers…"
        errorTitle="Could not load the triggers"
        isEmpty={shown.length === 0}
        empty={
          <EmptyList
            icon={<Zap size={22} />}
            search={search}
            noMatch="No trigger matches your search"
            empty={`No triggers in schema ${schema}`}
            emptyDescription="Create one to run a function when a table changes."
          />
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
    </DatabasePage>
  )
}
