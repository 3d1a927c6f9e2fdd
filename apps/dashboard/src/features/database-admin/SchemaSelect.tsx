import { Select } from '../../components/ui/Field'
import { useSchemas } from '../../data/table-editor/useCatalog'

/** The schema a page lists, among the database's (Postgres's own left out). */
export function SchemaSelect({ projectRef, value, onChange }: { projectRef: string; value: string; onChange: (schema: string) => void }) {
  const schemas = useSchemas(projectRef)
  const options = schemas.data ?? [value]
  return (
    <label className="dba-schema">
      <span className="dba-schema-label">Schema</span>
      <Select aria-label="Schema" value={value} onChange={(event) => onChange(event.target.value)}>
        {(options.includes(value) ? options : [value, ...options]).map((schema) => (
          <option key={schema} value={schema}>
            {schema}
          </option>
        ))}
      </Select>
    </label>
  )
}
