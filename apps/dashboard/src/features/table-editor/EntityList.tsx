import { Eye, FileUp, Plus, Search, Table2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import { NavLink } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { Select } from '../../components/ui/Field'
import { Spinner } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useEntities, useSchemas } from '../../data/table-editor/useCatalog'

interface EntityListProps {
  projectRef: string
  schema: string
  currentId: number | undefined
  canWrite: boolean
  onSchemaChange: (schema: string) => void
  onNewTable: () => void
  onNewTableFromCsv: () => void
}

/** The left panel: a schema select, a search, and the schema's tables and views. */
export function EntityList({ projectRef, schema, currentId, canWrite, onSchemaChange, onNewTable, onNewTableFromCsv }: EntityListProps) {
  const schemas = useSchemas(projectRef)
  const entities = useEntities(projectRef, schema)
  const [search, setSearch] = useState('')
  const shown = useMemo(() => {
    const wanted = search.trim().toLowerCase()
    return (entities.data ?? []).filter((entity) => entity.name.toLowerCase().includes(wanted))
  }, [entities.data, search])
  const schemaNames = schemas.data?.includes(schema) ? schemas.data : [schema, ...(schemas.data ?? [])]

  return (
    <nav className="te-explorer" aria-label="Tables and views">
      <div className="te-explorer-header">
        <h2 className="te-explorer-title">Table Editor</h2>
        {canWrite ? (
          <div className="te-explorer-actions">
            <IconButton label="New table from CSV" icon={<FileUp size={16} aria-hidden="true" />} onClick={onNewTableFromCsv} />
            <IconButton label="New table" icon={<Plus size={16} aria-hidden="true" />} onClick={onNewTable} />
          </div>
        ) : null}
      </div>
      <div className="te-explorer-controls">
        <Select aria-label="Schema" value={schema} onChange={(event) => onSchemaChange(event.target.value)}>
          {schemaNames.map((name) => (
            <option key={name} value={name}>
              schema: {name}
            </option>
          ))}
        </Select>
        <div className="te-search">
          <Search size={14} aria-hidden="true" />
          <input className="input" type="search" aria-label="Search tables" placeholder="Search tables…" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
      </div>
      {entities.isPending ? (
        <div className="te-explorer-note">
          <Spinner size={14} /> Loading tables…
        </div>
      ) : entities.isError ? (
        <div className="te-explorer-note te-error">Failed to load tables: {errorMessage(entities.error)}</div>
      ) : shown.length === 0 ? (
        <div className="te-explorer-note">{search ? 'No tables match the search' : 'No tables or views in this schema'}</div>
      ) : (
        <ul className="te-entity-list">
          {shown.map((entity) => {
            const isView = entity.type === 'view' || entity.type === 'materialized view'
            return (
              <li key={entity.id}>
                <NavLink
                  to={`/project/${projectRef}/editor/${entity.id}?schema=${encodeURIComponent(entity.schema)}`}
                  className={`te-entity-link${entity.id === currentId ? ' active' : ''}`}
                  title={`${entity.type}: ${entity.schema}.${entity.name}`}
                >
                  {isView ? <Eye size={14} aria-hidden="true" /> : <Table2 size={14} aria-hidden="true" />}
                  <span className="te-entity-name">{entity.name}</span>
                  {isView ? <span className="te-entity-kind">{entity.type === 'view' ? 'view' : 'mat. view'}</span> : null}
                </NavLink>
              </li>
            )
          })}
        </ul>
      )}
    </nav>
  )
}
