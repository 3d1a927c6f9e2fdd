import { buildCreateTable, TableEditorInputError } from '@stratum/sql'
import { Plus } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import { newColumn, starterColumns, toColumnSpec, type ColumnDraft } from './column-draft'
import { ColumnFields } from './ColumnFields'
import { ReviewSqlFooter } from './ReviewSqlFooter'

interface CreateTableDialogProps {
  projectRef: string
  schema: string
  open: boolean
  onClose: () => void
  /** The SQL to show and run, and the new table's name to open once it exists. */
  onReview: (sql: string, name: string) => void
}

/** A new table: name, columns (type, default, nullable, unique, primary key, identity, foreign key), RLS; the SQL is shown next. */
export function CreateTableDialog({ projectRef, schema, open, onClose, onReview }: CreateTableDialogProps) {
  const [name, setName] = useState('')
  const [rls, setRls] = useState(true)
  const [columns, setColumns] = useState<ColumnDraft[]>(starterColumns)
  const [problem, setProblem] = useState<string | undefined>()

  const review = (event: FormEvent) => {
    event.preventDefault()
    setProblem(undefined)
    if (columns.some((column) => column.references && (!column.references.table || !column.references.column))) {
      return setProblem('Choose the referenced table and column of each foreign key')
    }
    try {
      onReview(buildCreateTable({ schema, name: name.trim(), enableRls: rls, columns: columns.map(toColumnSpec) }), name.trim())
    } catch (error) {
      if (error instanceof TableEditorInputError) return setProblem(error.message)
      throw error
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={`Create a new table in ${schema}`}
      footer={<ReviewSqlFooter formId="te-create-table" onCancel={onClose} />}
    >
      <form id="te-create-table" className="te-ddl-form" onSubmit={review}>
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} required autoFocus />
        <label className="te-check">
          <input type="checkbox" checked={rls} onChange={(event) => setRls(event.target.checked)} />
          Enable Row Level Security (recommended: the API reads and writes only what policies allow)
        </label>
        <h3 className="te-form-heading">Columns</h3>
        {columns.map((column, index) => (
          <ColumnFields
            key={column.key}
            projectRef={projectRef}
            schema={schema}
            draft={column}
            index={index}
            onChange={(next) => setColumns((current) => current.map((item) => (item.key === next.key ? next : item)))}
            onRemove={columns.length > 1 ? () => setColumns((current) => current.filter((item) => item.key !== column.key)) : undefined}
          />
        ))}
        <Button size="sm" variant="secondary" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setColumns((current) => [...current, newColumn()])}>
          Add column
        </Button>
        {problem ? <Alert tone="danger" title={problem} /> : null}
      </form>
    </Dialog>
  )
}
