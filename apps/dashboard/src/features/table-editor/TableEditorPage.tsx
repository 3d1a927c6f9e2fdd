import { buildSetRealtime } from '@stratum/sql'
import { Radio, Table2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { entitiesListQuery, useEntities, useRelation } from '../../data/table-editor/useCatalog'
import { usePreload } from '../../lib/lazyComponent'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { useQueryClient } from '@tanstack/react-query'
import { CreateTableDialog } from './CreateTableDialog'
import { DefinitionView } from './DefinitionView'
import { EntityList } from './EntityList'
import { ImportCsvDialog, RowsGrid } from './lazy'
import { PoliciesView } from './PoliciesView'
import { rememberedTable, rememberTable } from './rememberedTables'
import { SqlPreviewDialog, type PendingSql } from './SqlPreviewDialog'
import { TableView } from './TableView'
import { useTableUrlState } from './useTableUrlState'
import './table-editor.css'
import './table-editor-forms.css'

type View = 'data' | 'definition' | 'policies'

/**
 * The table editor: /project/{ref}/editor lists a schema's tables and views, /editor/{table id} opens
 * one. Reads go through the read-only connection; every write through the full one, which the server
 * refuses to a Read-only member (the controls are not shown to them either).
 */
export function TableEditorPage() {
  const { ref, project } = useCurrentProject()
  const { id } = useParams()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const relationId = id && /^\d+$/.test(id) ? Number(id) : undefined
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const url = useTableUrlState()
  const relation = useRelation(ref, relationId)
  const schema = url.schema ?? relation.data?.schema ?? 'public'
  const [view, setView] = useState<View>('data')
  const [creating, setCreating] = useState(false)
  const [creatingFromCsv, setCreatingFromCsv] = useState(false)
  const [pending, setPending] = useState<PendingSql | undefined>()
  useProjectPageTitle(relation.data?.name ?? 'Table Editor')
  // The grid's chunk loads while the list is shown: a table opened from it then shows its rows as soon as they arrive.
  usePreload(RowsGrid)
  // The name behind the id, for the day the id no longer exists (TableNotFound).
  useEffect(() => {
    if (ref && relationId !== undefined && relation.data) rememberTable(ref, relationId, relation.data)
  }, [ref, relationId, relation.data])

  const openCreated = async (name: string) => {
    const entities = await queryClient.fetchQuery({ ...entitiesListQuery(ref, schema), staleTime: 0 })
    const created = entities.find((entity) => entity.name === name)
    if (created) void navigate(`/project/${ref}/editor/${created.id}?schema=${encodeURIComponent(schema)}`)
  }

  let content
  if (relationId === undefined) {
    content = (
      <div className="te-message">
        <EmptyState
          icon={<Table2 size={20} aria-hidden="true" />}
          title={id ? 'Table not found' : 'Select a table'}
          description={id ? `No table or view has the id ${id}.` : 'Choose a table or view on the left to browse its rows.'}
          action={
            canWrite ? (
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create a new table
              </Button>
            ) : undefined
          }
        />
      </div>
    )
  } else if (relation.isPending) content = <LoadingState label="Loading table…" />
  else if (relation.isError)
    content = (
      <div className="te-message">
        <Alert tone="danger" title="Failed to load the table">
          {errorMessage(relation.error)}
        </Alert>
      </div>
    )
  else if (!relation.data) content = <TableNotFound projectRef={ref} id={relationId} />
  else {
    const current = relation.data
    const isTable = current.type === 'table' || current.type === 'partitioned table'
    const tabs: Array<{ key: View; label: string }> = [
      { key: 'data', label: 'Data' },
      { key: 'definition', label: 'Definition' },
      ...(isTable ? [{ key: 'policies' as View, label: `Policies${current.policies.length ? ` (${current.policies.length})` : ''}` }] : []),
    ]
    const shown = isTable || view !== 'policies' ? view : 'data'
    content = (
      <div className="te-relation">
        <header className="te-relation-header">
          <div className="te-toolbar-title">
            <h1 className="te-title">{current.name}</h1>
            <span className="te-muted">
              {current.schema} · {current.type}
            </span>
            {isTable ? <Badge tone={current.rls_enabled ? 'success' : 'warning'}>{current.rls_enabled ? 'RLS enabled' : 'RLS disabled'}</Badge> : null}
            {isTable ? (
              <Button
                size="sm"
                variant="ghost"
                icon={<Radio size={14} aria-hidden="true" />}
                aria-pressed={current.realtime_enabled}
                disabled={!canWrite}
                disabledReason={canWrite ? undefined : 'Read-only: your role cannot change which tables Realtime streams'}
                onClick={() =>
                  setPending({
                    title: `${current.realtime_enabled ? 'Disable' : 'Enable'} Realtime for ${current.name}`,
                    sql: buildSetRealtime(current, !current.realtime_enabled),
                    done: `Realtime ${current.realtime_enabled ? 'disabled' : 'enabled'} for ${current.name}`,
                  })
                }
              >
                {current.realtime_enabled ? 'Realtime on' : 'Realtime off'}
              </Button>
            ) : null}
          </div>
          <div className="segmented te-tabs" role="group" aria-label="Table view">
            {tabs.map((tab) => (
              <button key={tab.key} type="button" aria-pressed={shown === tab.key} onClick={() => setView(tab.key)}>
                {tab.label}
              </button>
            ))}
          </div>
        </header>
        {shown === 'data' ? <TableView key={current.id} projectRef={ref} relation={current} canWrite={canWrite} /> : null}
        {shown === 'definition' ? (
          <DefinitionView
            projectRef={ref}
            relation={current}
            canWrite={canWrite}
            onPreview={setPending}
            onDropped={() => navigate(`/project/${ref}/editor?schema=${encodeURIComponent(current.schema)}`)}
          />
        ) : null}
        {shown === 'policies' ? <PoliciesView projectRef={ref} relation={current} canWrite={canWrite} onPreview={setPending} /> : null}
      </div>
    )
  }

  return (
    <div className="te-page">
      <EntityList projectRef={ref} schema={schema} currentId={relationId} canWrite={canWrite} onSchemaChange={url.setSchema} onNewTable={() => setCreating(true)} onNewTableFromCsv={() => setCreatingFromCsv(true)} />
      <div className="te-main">{content}</div>
      {creating ? (
        <CreateTableDialog
          projectRef={ref}
          schema={schema}
          open
          onClose={() => setCreating(false)}
          onReview={(sql, name) => {
            setCreating(false)
            setPending({ title: `Create table ${name}`, sql, done: `Table ${name} created`, onDone: () => void openCreated(name) })
          }}
        />
      ) : null}
      {creatingFromCsv ? (
        <ImportCsvDialog
          projectRef={ref}
          schema={schema}
          onClose={() => setCreatingFromCsv(false)}
          onImported={(name) => {
            setCreatingFromCsv(false)
            void openCreated(name)
          }}
        />
      ) : null}
      <SqlPreviewDialog projectRef={ref} pending={pending} onClose={() => setPending(undefined)} />
    </div>
  )
}

/**
 * An id no table has (an old link, a table made again, ids renumbered by an upgrade): where this browser opened it
 * before, the table it meant, found again by its name.
 */
function TableNotFound({ projectRef, id }: { projectRef: string | undefined; id: number }) {
  const navigate = useNavigate()
  const meant = projectRef ? rememberedTable(projectRef, id) : undefined
  const entities = useEntities(meant ? projectRef : undefined, meant?.schema ?? 'public')
  const found = meant ? entities.data?.find((entity) => entity.name === meant.name) : undefined
  const qualified = meant ? `${meant.schema}.${meant.name}` : ''
  const description = !meant
    ? `No table or view has the id ${id}: it may have been deleted.`
    : found
      ? `No table or view has the id ${id} now. It was ${qualified}, which has the id ${found.id} now.`
      : entities.isPending
        ? `No table or view has the id ${id} now. It was ${qualified}.`
        : `No table or view has the id ${id} now. It was ${qualified}, which no longer exists.`
  return (
    <div className="te-message">
      <EmptyState
        icon={<Table2 size={20} aria-hidden="true" />}
        title="Table not found"
        description={description}
        action={
          found && meant ? (
            <Button variant="primary" onClick={() => void navigate(`/project/${projectRef}/editor/${found.id}?schema=${encodeURIComponent(meant.schema)}`)}>
              Open {qualified}
            </Button>
          ) : undefined
        }
      />
    </div>
  )
}
