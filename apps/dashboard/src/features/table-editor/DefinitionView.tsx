import { buildAddColumn, buildAlterColumn, buildDropColumn, buildDropTable, buildRenameTable, TableEditorInputError, type ColumnChange } from '@stratum/sql'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button, IconButton } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import type { EditorColumn, EditorRelation } from '../../data/table-editor/types'
import { newColumn, toColumnSpec, type ColumnDraft } from './column-draft'
import { ColumnFields } from './ColumnFields'
import type { PendingSql } from './SqlPreviewDialog'
import { ReviewSqlFooter } from './ReviewSqlFooter'

const ACTIONS: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' }

interface DefinitionViewProps {
  projectRef: string
  relation: EditorRelation
  canWrite: boolean
  onPreview: (pending: PendingSql) => void
  onDropped: () => void
}

function ColumnChangeDialog({ column, relation, onClose, onPreview }: { column: EditorColumn; relation: EditorRelation; onClose: () => void; onPreview: (pending: PendingSql) => void }) {
  const unique = relation.unique_constraints.find((constraint) => constraint.column === column.name)
  const [name, setName] = useState(column.name)
  const [type, setType] = useState(column.dataType)
  const [defaultText, setDefaultText] = useState(column.defaultValue ?? '')
  const [nullable, setNullable] = useState(column.isNullable)
  const [isUnique, setUnique] = useState(unique !== undefined)
  const [problem, setProblem] = useState<string | undefined>()
  const review = (event: FormEvent) => {
    event.preventDefault()
    const change: ColumnChange = {}
    if (name !== column.name) change.name = name
    if (type !== column.dataType) change.type = type
    // A default the catalog printed is an expression; a changed one is taken as a value (quoted).
    if (defaultText !== (column.defaultValue ?? '')) change.default = defaultText === '' ? { kind: 'none' } : { kind: 'value', text: defaultText }
    if (nullable !== column.isNullable) change.nullable = nullable
    if (isUnique !== (unique !== undefined)) change.unique = isUnique
    try {
      const statements = buildAlterColumn(relation, column.name, change, unique?.name)
      if (statements.length === 0) return onClose()
      onPreview({ title: `Change column ${column.name}`, sql: statements.join('\n'), done: `Column ${column.name} changed` })
      onClose()
    } catch (error) {
      if (error instanceof TableEditorInputError) return setProblem(error.message)
      throw error
    }
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Change column ${column.name}`}
      footer={<ReviewSqlFooter formId="te-alter-column" onCancel={onClose} />}
    >
      <form id="te-alter-column" className="te-ddl-form" onSubmit={review}>
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} />
        <TextField label="Type" value={type} onChange={(event) => setType(event.target.value)} />
        <TextField label="Default value" hint="Empty for no default. A new default is written as a value." value={defaultText} onChange={(event) => setDefaultText(event.target.value)} />
        <label className="te-check">
          <input type="checkbox" checked={nullable} onChange={(event) => setNullable(event.target.checked)} /> Nullable
        </label>
        <label className="te-check">
          <input type="checkbox" checked={isUnique} onChange={(event) => setUnique(event.target.checked)} /> Unique
        </label>
        {problem ? <Alert tone="danger" title={problem} /> : null}
      </form>
    </Dialog>
  )
}

function AddColumnDialog({ projectRef, relation, onClose, onPreview }: { projectRef: string; relation: EditorRelation; onClose: () => void; onPreview: (pending: PendingSql) => void }) {
  const [draft, setDraft] = useState<ColumnDraft>(() => newColumn())
  const [problem, setProblem] = useState<string | undefined>()
  const review = (event: FormEvent) => {
    event.preventDefault()
    if (draft.references && (!draft.references.table || !draft.references.column)) return setProblem('Choose the referenced table and column')
    try {
      onPreview({ title: `Add a column to ${relation.name}`, sql: buildAddColumn(relation, toColumnSpec(draft)), done: `Column ${draft.name} added` })
      onClose()
    } catch (error) {
      if (error instanceof TableEditorInputError) return setProblem(error.message)
      throw error
    }
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Add a column to ${relation.name}`}
      footer={<ReviewSqlFooter formId="te-add-column" onCancel={onClose} />}
    >
      <form id="te-add-column" className="te-ddl-form" onSubmit={review}>
        <ColumnFields projectRef={projectRef} schema={relation.schema} draft={draft} index={0} onChange={setDraft} />
        {problem ? <Alert tone="danger" title={problem} /> : null}
      </form>
    </Dialog>
  )
}

/** The table's columns with their types, defaults, constraints and foreign keys; add, change and drop columns, rename or drop the table. */
export function DefinitionView({ projectRef, relation, canWrite, onPreview, onDropped }: DefinitionViewProps) {
  const [changing, setChanging] = useState<EditorColumn | undefined>()
  const [adding, setAdding] = useState(false)
  const [renaming, setRenaming] = useState<string | undefined>()
  const isTable = relation.type === 'table' || relation.type === 'partitioned table'
  const writable = canWrite && isTable
  const references = new Map(relation.relationships.map((r) => [r.source_column_name, r]))
  const unique = new Set(relation.unique_constraints.map((constraint) => constraint.column))
  return (
    <div className="te-definition">
      {writable ? (
        <div className="te-definition-actions">
          <Button size="sm" variant="secondary" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setAdding(true)}>
            Add column
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRenaming(relation.name)}>
            Rename table
          </Button>
          <Button
            size="sm"
            variant="danger"
            icon={<Trash2 size={14} aria-hidden="true" />}
            onClick={() => onPreview({ title: `Delete table ${relation.name}`, sql: buildDropTable(relation, false), done: `Table ${relation.name} deleted`, destructive: true, onDone: onDropped })}
          >
            Delete table
          </Button>
        </div>
      ) : null}
      <table className="te-definition-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>Default</th>
            <th>Constraints</th>
            <th>References</th>
            {writable ? <th>
              <span className="visually-hidden">Actions</span>
            </th> : null}
          </tr>
        </thead>
        <tbody>
          {relation.columns.map((column) => {
            const reference = references.get(column.name)
            const constraints = [
              relation.primary_keys.includes(column.name) ? 'primary key' : null,
              column.isIdentity ? `identity ${column.isGeneratable ? 'by default' : 'always'}` : null,
              column.isNullable ? 'nullable' : 'not null',
              unique.has(column.name) ? 'unique' : null,
            ].filter(Boolean)
            return (
              <tr key={column.name}>
                <td className="te-mono te-nowrap">{column.name}</td>
                <td className="te-mono te-nowrap">{column.dataType}</td>
                <td className="te-mono">{column.defaultValue ?? ''}</td>
                <td>{constraints.join(', ')}</td>
                <td className="te-mono">
                  {reference
                    ? `${reference.target_table_schema}.${reference.target_table_name}.${reference.target_column_name} (on delete ${ACTIONS[reference.deletion_action]}, on update ${ACTIONS[reference.update_action]})`
                    : ''}
                </td>
                {writable ? (
                  <td className="te-definition-row-actions">
                    <IconButton label={`Change column ${column.name}`} icon={<Pencil size={14} aria-hidden="true" />} onClick={() => setChanging(column)} />
                    <IconButton
                      label={`Delete column ${column.name}`}
                      icon={<Trash2 size={14} aria-hidden="true" />}
                      onClick={() => onPreview({ title: `Delete column ${column.name}`, sql: buildDropColumn(relation, column.name, false), done: `Column ${column.name} deleted`, destructive: true })}
                    />
                  </td>
                ) : null}
              </tr>
            )
          })}
        </tbody>
      </table>
      {changing ? <ColumnChangeDialog column={changing} relation={relation} onClose={() => setChanging(undefined)} onPreview={onPreview} /> : null}
      {adding ? <AddColumnDialog projectRef={projectRef} relation={relation} onClose={() => setAdding(false)} onPreview={onPreview} /> : null}
      <Dialog
        open={renaming !== undefined}
        onOpenChange={(open) => !open && setRenaming(undefined)}
        size="sm"
        title={`Rename table ${relation.name}`}
        footer={
          <Button
            variant="primary"
            onClick={() => {
              try {
                if (renaming && renaming !== relation.name) onPreview({ title: `Rename table ${relation.name}`, sql: buildRenameTable(relation, renaming), done: `Table renamed to ${renaming}` })
                setRenaming(undefined)
              } catch (error) {
                if (!(error instanceof TableEditorInputError)) throw error
              }
            }}
          >
            Review SQL
          </Button>
        }
      >
        <TextField label="New name" value={renaming ?? ''} onChange={(event) => setRenaming(event.target.value)} />
      </Dialog>
    </div>
  )
}
