import { Search } from 'lucide-react'
import { Select } from '../ui/Field'
import { useSchemas } from '../../data/table-editor/useCatalog'
import './schema-search-toolbar.css'

/** The schema a Database page lists, among the database's (Postgres's own left out). */
export function SchemaSelect({ projectRef, value, onChange }: { projectRef: string; value: string; onChange: (schema: string) => void }) {
  const schemas = useSchemas(projectRef)
  // The schema in the URL is offered even before (or without) the list, so the select never shows another one.
  const names = schemas.data?.includes(value) ? schemas.data : [value, ...(schemas.data ?? [])]
  return (
    <label className="schema-select">
      <span className="schema-select-label">Schema</span>
      <Select aria-label="Schema" value={value} onChange={(event) => onChange(event.target.value)}>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </Select>
    </label>
  )
}

interface SchemaSearchToolbarProps {
  projectRef: string
  schema: string
  onSchemaChange: (schema: string) => void
  search: string
  onSearchChange: (search: string) => void
  /** 'Search for a function' */
  searchLabel: string
  /** What the empty box says; the label by default. */
  placeholder?: string
}

/** The schema picker and the search box above each listing of the Database pages. */
export function SchemaSearchToolbar({ projectRef, schema, onSchemaChange, search, onSearchChange, searchLabel, placeholder }: SchemaSearchToolbarProps) {
  return (
    <div className="schema-search-toolbar">
      <SchemaSelect projectRef={projectRef} value={schema} onChange={onSchemaChange} />
      <div className="input-wrap schema-search">
        <Search size={14} aria-hidden="true" className="schema-search-icon" />
        <input
          className="input"
          type="search"
          aria-label={searchLabel}
          placeholder={placeholder ?? searchLabel}
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
        />
      </div>
    </div>
  )
}

/** Case-insensitive match of any of the texts. */
export function matchesSearch(search: string, ...texts: Array<string | null | undefined>): boolean {
  const needle = search.trim().toLowerCase()
  return !needle || texts.some((text) => (text ?? '').toLowerCase().includes(needle))
}
