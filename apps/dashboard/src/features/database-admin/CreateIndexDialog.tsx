import { useId, useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Checkbox } from '../../components/ui/Checkbox'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field'
import { useSchemaTables } from '../../data/database-admin/useSchemaTables'
import type { PendingSql } from '../table-editor'
import { ReviewFooter } from './ReviewFooter'
import { buildCreateIndex, INDEX_METHODS, type IndexMethod } from './sql/indexes'
import { AdminInputError } from './sql/names'

interface CreateIndexDialogProps {
  projectRef: string
  schema: string
  onClose: () => void
  onPreview: (pending: PendingSql) => void
}

const METHOD_HINTS: Record<IndexMethod, string> = {
  btree: 'Equality and ranges (=, <, BETWEEN, ORDER BY); the only method that can be unique.',
  hash: 'Equality (=) only.',
  gin: 'Values holding many items: jsonb, arrays, full-text search.',
  gist: 'Geometry, ranges and nearest-neighbour searches.',
  brin: 'Very large tables whose rows are stored in the column’s order (timestamps of an append-only log).',
}

/** A new index on one of the schema's tables: method, columns in the order chosen, unique, and a partial WHERE. */
export function CreateIndexDialog({ projectRef, schema, onClose, onPreview }: CreateIndexDialogProps) {
  const formId = useId()
  const tables = useSchemaTables(projectRef, schema, true)
  const [tableId, setTableId] = useState<number | undefined>()
  const [name, setName] = useState('')
  const [method, setMethod] = useState<IndexMethod>('btree')
  const [columns, setColumns] = useState<string[]>([])
  const [unique, setUnique] = useState(false)
  const [where, setWhere] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const table = tables.data?.find((candidate) => candidate.id === tableId) ?? tables.data?.[0]

  const review = (event: FormEvent) => {
    event.preventDefault()
    if (!table) return setProblem(`Schema ${schema} has no table to index`)
    try {
      const sql = buildCreateIndex({ table: { schema, name: table.name }, name, method, columns, unique: unique && method === 'btree', where })
      onPreview({ title: `Create an index on ${table.name}`, sql, done: 'Index created' })
      onClose()
    } catch (error) {
      if (error instanceof AdminInputError) return setProblem(error.message)
      throw error
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`New index in ${schema}`} footer={<ReviewFooter formId={formId} onCancel={onClose} />}>
      <form id={formId} className="stack" onSubmit={review} noValidate>
        <SelectField
          label="Table"
          value={table?.id ?? ''}
          onChange={(event) => {
            setTableId(Number(event.target.value))
            setColumns([])
          }}
          disabled={!tables.data?.length}
        >
          {(tables.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Method" value={method} hint={METHOD_HINTS[method]} onChange={(event) => setMethod(event.target.value as IndexMethod)}>
          {INDEX_METHODS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </SelectField>
        <fieldset className="dba-fieldset">
          <legend className="field-label">Columns (in the order you tick them)</legend>
          {table?.columns?.length ? (
            <div className="dba-choices">
              {table.columns.map((column) => (
                <Checkbox
                  key={column.name}
                  label={
                    <>
                      <span className="mono">{column.name}</span> <span className="muted">{column.format}</span>
                      {columns.includes(column.name) ? <span className="dba-order"> #{columns.indexOf(column.name) + 1}</span> : null}
                    </>
                  }
                  checked={columns.includes(column.name)}
                  onCheckedChange={(on) => setColumns((current) => (on ? [...current, column.name] : current.filter((item) => item !== column.name)))}
                />
              ))}
            </div>
          ) : (
            <p className="muted">{tables.isPending ? 'Loading columns…' : 'No columns to index.'}</p>
          )}
        </fieldset>
        <Checkbox
          label="Unique"
          hint={method === 'btree' ? 'Two rows may not hold the same values in these columns.' : 'Only a btree index can be unique.'}
          checked={unique && method === 'btree'}
          disabled={method !== 'btree'}
          onCheckedChange={setUnique}
        />
        <TextField
          label="Name (optional)"
          hint="Left blank, Postgres names it after the table and columns."
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <TextAreaField
          label="WHERE (optional)"
          hint="A partial index covers only the rows this condition is true for (e.g. deleted_at IS NULL)."
          className="mono"
          rows={2}
          value={where}
          onChange={(event) => setWhere(event.target.value)}
        />
        {problem ? <Alert tone="danger" title={problem} /> : null}
      </form>
    </Dialog>
  )
}
