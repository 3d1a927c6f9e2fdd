import { ExplorerSearch } from './ExplorerSearch'
import { ChevronDown, ChevronRight, Eye, RefreshCw, SquareFunction, Table2, TableProperties } from 'lucide-react'
import { memo, useDeferredValue, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useSqlCatalog, type CatalogFunction, type CatalogRelation } from '../../data/sql/useSqlCatalog'
import { qualifiedName } from './completion'
import './schema-browser.css'

/** Rows drawn per group until "Show all": a schema of thousands of tables stays quick to open and to filter. */
const ROWS_SHOWN = 100

interface SchemaBrowserProps {
  projectRef: string
  /** Types the name at the editor's cursor. */
  onInsert: (text: string) => void
}

interface SchemaEntry {
  schema: string
  tables: CatalogRelation[]
  views: CatalogRelation[]
  functions: CatalogFunction[]
}

function group(schemas: readonly string[], relations: readonly CatalogRelation[], functions: readonly CatalogFunction[], search: string): SchemaEntry[] {
  const needle = search.trim().toLowerCase()
  const matches = (name: string) => !needle || name.toLowerCase().includes(needle)
  const bySchema = new Map<string, SchemaEntry>(schemas.map((schema) => [schema, { schema, tables: [], views: [], functions: [] }]))
  const entry = (schema: string) => bySchema.get(schema) ?? bySchema.set(schema, { schema, tables: [], views: [], functions: [] }).get(schema)!
  for (const relation of relations) {
    if (!matches(relation.name)) continue
    const kind = relation.kind === 'view' || relation.kind === 'materialized view' ? 'views' : 'tables'
    entry(relation.schema)[kind].push(relation)
  }
  for (const fn of functions) if (matches(fn.name)) entry(fn.schema).functions.push(fn)
  const all = [...bySchema.values()]
  return needle ? all.filter((e) => e.tables.length + e.views.length + e.functions.length > 0 || matches(e.schema)) : all
}

/**
 * The project's schemas beside the editor: each schema's tables, views and functions, filtered by name. A click types the
 * name at the cursor (quoted when Postgres needs it, schema-qualified outside public); a table or view opens in the table
 * editor. Memoized: typing in the editor re-renders the workspace, never these rows.
 */
export const SchemaBrowser = memo(function SchemaBrowser({ projectRef, onInsert }: SchemaBrowserProps) {
  const catalog = useSqlCatalog(projectRef)
  const [search, setSearch] = useState('')
  const deferred = useDeferredValue(search)
  const [open, setOpen] = useState<Record<string, boolean>>({})
  const entries = useMemo(
    () => (catalog.data ? group(catalog.data.schemas, catalog.data.relations, catalog.data.functions, deferred) : []),
    [catalog.data, deferred],
  )
  // Public opens by itself (where most work is), every schema with a match while searching.
  const isOpen = (schema: string) => open[schema] ?? (deferred.trim() !== '' || schema === 'public' || entries.length === 1)

  return (
    <aside className="schema-browser" aria-label="Schema browser">
      <div className="schema-browser-header">
        <h2 className="schema-browser-title">Schema</h2>
        <IconButton
          size="sm"
          label="Refresh schema"
          icon={catalog.isFetching ? <Spinner size={14} /> : <RefreshCw size={14} aria-hidden="true" />}
          onClick={() => void catalog.refetch()}
        />
      </div>
      <ExplorerSearch label="Search tables, views and functions" placeholder="Search tables, functions" value={search} maxLength={128} onChange={setSearch} />
      {catalog.isPending ? (
        <div className="schema-browser-note">
          <Spinner size={14} /> Loading schema…
        </div>
      ) : catalog.isError ? (
        <div className="schema-browser-note schema-browser-error" role="alert">
          Failed to load the schema: {errorMessage(catalog.error)}
        </div>
      ) : entries.length === 0 ? (
        <div className="schema-browser-note">{deferred.trim() ? `Nothing matches '${deferred.trim()}'` : 'No schemas'}</div>
      ) : (
        <ul className="schema-browser-list">
          {entries.map((entry) => (
            <li key={entry.schema}>
              <button
                type="button"
                className="schema-browser-schema"
                aria-expanded={isOpen(entry.schema)}
                onClick={() => setOpen((current) => ({ ...current, [entry.schema]: !isOpen(entry.schema) }))}
              >
                {isOpen(entry.schema) ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
                <span className="schema-browser-name">{entry.schema}</span>
                <span className="schema-browser-count">{entry.tables.length + entry.views.length + entry.functions.length}</span>
              </button>
              {isOpen(entry.schema) ? (
                <SchemaGroups key={`${entry.schema}|${deferred}`} projectRef={projectRef} entry={entry} onInsert={onInsert} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </aside>
  )
})

function SchemaGroups({ projectRef, entry, onInsert }: { projectRef: string; entry: SchemaEntry; onInsert: (text: string) => void }) {
  return (
    <div className="schema-browser-groups">
      <Group title="Tables" items={entry.tables} render={(table) => <RelationRow key={table.id} projectRef={projectRef} relation={table} onInsert={onInsert} />} />
      <Group title="Views" items={entry.views} render={(view) => <RelationRow key={view.id} projectRef={projectRef} relation={view} onInsert={onInsert} />} />
      <Group
        title="Functions"
        items={entry.functions}
        render={(fn) => (
          <li key={fn.id} className="schema-browser-row">
            <button
              type="button"
              className="schema-browser-item"
              title={`${fn.schema}.${fn.name}(${fn.args})${fn.result ? ` returns ${fn.result}` : ''}: click to insert`}
              onClick={() => onInsert(`${qualifiedName(fn.schema, fn.name)}()`)}
            >
              <SquareFunction size={14} aria-hidden="true" />
              <span className="schema-browser-name">{fn.name}</span>
              <span className="schema-browser-args">({fn.args})</span>
            </button>
          </li>
        )}
      />
    </div>
  )
}

function Group<T>({ title, items, render }: { title: string; items: readonly T[]; render: (item: T) => React.ReactNode }) {
  const [all, setAll] = useState(false)
  if (items.length === 0) return null
  const shown = all ? items : items.slice(0, ROWS_SHOWN)
  return (
    <section>
      <h3 className="schema-browser-group">
        {title} <span className="schema-browser-count">{items.length}</span>
      </h3>
      <ul className="schema-browser-list" aria-label={title}>
        {shown.map(render)}
      </ul>
      {shown.length < items.length ? (
        <button type="button" className="schema-browser-more" onClick={() => setAll(true)}>
          Show all {items.length.toLocaleString('en-US')}
        </button>
      ) : null}
    </section>
  )
}

function RelationRow({ projectRef, relation, onInsert }: { projectRef: string; relation: CatalogRelation; onInsert: (text: string) => void }) {
  const name = qualifiedName(relation.schema, relation.name)
  const isView = relation.kind === 'view' || relation.kind === 'materialized view'
  return (
    <li className="schema-browser-row">
      <button
        type="button"
        className="schema-browser-item"
        title={`${relation.kind} ${relation.schema}.${relation.name}: click to insert ${name}`}
        onClick={() => onInsert(name)}
      >
        {isView ? <Eye size={14} aria-hidden="true" /> : <Table2 size={14} aria-hidden="true" />}
        <span className="schema-browser-name">{relation.name}</span>
      </button>
      <Link
        className="schema-browser-open"
        to={`/project/${projectRef}/editor/${relation.id}?schema=${encodeURIComponent(relation.schema)}`}
        aria-label={`Open ${relation.name} in table editor`}
        title="Open in table editor"
      >
        <TableProperties size={14} aria-hidden="true" />
      </Link>
    </li>
  )
}
