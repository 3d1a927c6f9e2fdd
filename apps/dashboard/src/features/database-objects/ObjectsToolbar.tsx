import { Search } from 'lucide-react'
import { Select } from '../../components/ui/Field'
import { useSchemas } from '../../data/table-editor/useCatalog'

interface ObjectsToolbarProps {
  projectRef: string
  schema: string
  onSchemaChange: (schema: string) => void
  search: string
  onSearchChange: (search: string) => void
  /** 'Search for a function' */
  searchLabel: string
}

/** The schema picker and the search box above each listing. */
export function ObjectsToolbar({ projectRef, schema, onSchemaChange, search, onSearchChange, searchLabel }: ObjectsToolbarProps) {
  const schemas = useSchemas(projectRef)
  // The schema in the URL is offered even before (or without) the list, so the select never shows another one.
  const names = schemas.data?.includes(schema) ? schemas.data : [schema, ...(schemas.data ?? [])]
  return (
    <div className="dbo-toolbar">
      <label className="dbo-schema">
        <span className="dbo-schema-label">Schema</span>
        <Select aria-label="Schema" value={schema} onChange={(event) => onSchemaChange(event.target.value)}>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </label>
      <div className="input-wrap dbo-search">
        <Search size={14} aria-hidden="true" className="dbo-search-icon" />
        <input className="input" type="search" aria-label={searchLabel} placeholder={searchLabel} value={search} onChange={(event) => onSearchChange(event.target.value)} />
      </div>
    </div>
  )
}

/** Case-insensitive match of any of the texts. */
export function matchesSearch(search: string, ...texts: Array<string | null | undefined>): boolean {
  const needle = search.trim().toLowerCase()
  return !needle || texts.some((text) => (text ?? '').toLowerCase().includes(needle))
}
