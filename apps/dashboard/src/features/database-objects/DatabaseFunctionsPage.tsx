import type { PgMetaFunction } from '@stratum/contracts'
import { Plus, SquareFunction } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { useDatabaseFunctions } from '../../data/database-objects/useDatabaseFunctions'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { FunctionEditor } from './FunctionEditor'
import { FunctionsTable } from './FunctionsTable'
import { matchesSearch, SchemaSearchToolbar } from '../../components/project/SchemaSearchToolbar'
import { buildDropFunction } from './sql/functions'
import { READ_ONLY_REASON, useObjectsPage } from './useObjectsPage'
import './database-objects.css'

/** What the page shows: the listing, or the editor of a new or existing function. */
type Mode = { kind: 'list' } | { kind: 'edit'; existing: PgMetaFunction | undefined }

/** /project/{ref}/database/functions: a schema's functions, searched by name; create, edit and delete, each through its SQL. */
export function DatabaseFunctionsPage() {
  useProjectPageTitle('Functions')
  const { ref, canWrite, schema, setSchema, preview, previewDialog, readOnlyNotice } = useObjectsPage()
  const toast = useToast()
  const [search, setSearch] = useState('')
  const [mode, setMode] = useState<Mode>({ kind: 'list' })
  const functions = useDatabaseFunctions(ref, schema)
  const shown = useMemo(() => (functions.data ?? []).filter((fn) => matchesSearch(search, fn.name)), [functions.data, search])

  const startDelete = (fn: PgMetaFunction) => {
    try {
      preview({ title: `Delete function ${fn.name}`, sql: buildDropFunction(fn, false), done: `Function ${fn.name} deleted`, destructive: true })
    } catch (problem) {
      toast.error(`Cannot delete function ${fn.name}`, problem instanceof Error ? problem.message : String(problem))
    }
  }

  return (
    <div className="page">
      <PageHeader
        title="Functions"
        description="Functions run SQL or PL/pgSQL inside the database: call them from SQL, from triggers or through the API's rpc."
        actions={
          mode.kind === 'list' ? (
            <Button
              variant="primary"
              icon={<Plus size={14} aria-hidden="true" />}
              disabled={!canWrite}
              disabledReason={canWrite ? undefined : READ_ONLY_REASON}
              onClick={() => setMode({ kind: 'edit', existing: undefined })}
            >
              Create a new function
            </Button>
          ) : undefined
        }
      />
      <div className="stack">
        {readOnlyNotice}
        {mode.kind === 'edit' ? (
          <FunctionEditor
            // A fresh editor (and Monaco model) for each function opened.
            key={mode.existing?.id ?? 'new'}
            projectRef={ref}
            schema={schema}
            existing={mode.existing}
            canWrite={canWrite}
            onCancel={() => setMode({ kind: 'list' })}
            onReview={(sql, spec) =>
              preview({
                title: mode.existing ? `Update function ${spec.name}` : `Create function ${spec.name}`,
                sql,
                done: mode.existing ? `Function ${spec.name} updated` : `Function ${spec.name} created`,
                onDone: () => {
                  setSchema(spec.schema)
                  setMode({ kind: 'list' })
                },
              })
            }
          />
        ) : (
          <>
            <SchemaSearchToolbar
              projectRef={ref}
              schema={schema}
              onSchemaChange={setSchema}
              search={search}
              onSearchChange={setSearch}
              searchLabel="Search for a function"
            />
            <QueryState
              query={functions}
              loadingLabel="Loading functions…"
              errorTitle="Could not load the functions"
              isEmpty={shown.length === 0}
              empty={
                <Card>
                  <EmptyState
                    icon={<SquareFunction size={22} />}
                    title={search.trim() ? 'No function matches your search' : `No functions in schema ${schema}`}
                    description={search.trim() ? `Nothing named like "${search.trim()}".` : 'Create one to run logic inside the database.'}
                  />
                </Card>
              }
            >
              <FunctionsTable functions={shown} canWrite={canWrite} onEdit={(fn) => setMode({ kind: 'edit', existing: fn })} onDelete={startDelete} />
            </QueryState>
          </>
        )}
      </div>
      {previewDialog}
    </div>
  )
}
