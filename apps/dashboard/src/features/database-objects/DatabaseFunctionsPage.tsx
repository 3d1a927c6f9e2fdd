import type { PgMetaFunction } from '@stratum/contracts'
import { SquareFunction } from 'lucide-react'
import { useMemo, useState } from 'react'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { databaseObjectKeys } from '../../data/database-objects/keys'
import { useDatabaseFunctions } from '../../data/database-objects/useDatabaseFunctions'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { FunctionEditor } from './FunctionEditor'
import { FunctionsTable } from './FunctionsTable'
import { matchesSearch } from '../../components/project/SchemaSearchToolbar'
import { buildDropFunction } from './sql/functions'
import { DatabasePage, EmptyList, useDatabasePage, useSchemaSearch } from '../database-pages'
import './database-objects.css'

/** What the page shows: the listing, or the editor of a new or existing function. */
type Mode = { kind: 'list' } | { kind: 'edit'; existing: PgMetaFunction | undefined }

/** /project/{ref}/database/functions: a schema's functions, searched by name; create, edit and delete, each through its SQL. */
export function DatabaseFunctionsPage() {
  useProjectPageTitle('Functions')
  const page = useDatabasePage(databaseObjectKeys.all)
  const { ref, canWrite, preview } = page
  const schemaSearch = useSchemaSearch()
  const { schema, setSchema, search } = schemaSearch
  const toast = useToast()
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
    <DatabasePage
      title="Functions"
      description="Functions run SQL or PL/pgSQL inside the database: call them from SQL, from triggers or through the API's rpc."
      page={page}
      create={mode.kind === 'list' ? { label: 'Create a new function', onClick: () => setMode({ kind: 'edit', existing: undefined }) } : undefined}
      toolbar={mode.kind === 'list' ? { state: schemaSearch, searchLabel: 'Search for a function' } : undefined}
    >
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
        <QueryState
          query={functions}
          loadingLabel="Loading functions…"
          errorTitle="Could not load the functions"
          isEmpty={shown.length === 0}
          empty={
            <EmptyList
              icon={<SquareFunction size={22} />}
              search={search}
              noMatch="No function matches your search"
              empty={`No functions in schema ${schema}`}
              emptyDescription="Create one to run logic inside the database."
            />
          }
        >
          <FunctionsTable functions={shown} canWrite={canWrite} onEdit={(fn) => setMode({ kind: 'edit', existing: fn })} onDelete={startDelete} />
        </QueryState>
      )}
    </DatabasePage>
  )
}
