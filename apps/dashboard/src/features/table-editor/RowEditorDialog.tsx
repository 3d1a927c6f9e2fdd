import { buildInsertRow, buildUpdateRow, type CellInput } from '@stratum/sql'
import { useEffect, useMemo, useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Select } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import type { EditorColumn, EditorRelation } from '../../data/table-editor/types'
import { useRunTableSql } from '../../data/table-editor/useRunTableSql'
import { ReferencePicker } from './ReferencePicker'
import type { EditorRow } from './rows'
import { SqlErrorAlert } from './SqlErrorAlert'
import { editorKind, valueProblem, ValueEditor } from './ValueEditor'

type Mode = 'value' | 'null' | 'default'
interface FieldState {
  mode: Mode
  text: string
}

interface RowEditorDialogProps {
  projectRef: string
  relation: EditorRelation
  /** The row to edit; undefined inserts a new row. */
  row: EditorRow | undefined
  open: boolean
  onClose: () => void
  /** The field to focus when the form opens (the cell that was double-clicked). */
  focusColumn?: string | undefined
}

/** Columns the database fills itself: never written. */
const writable = (column: EditorColumn) => !column.isGenerated && !(column.isIdentity && !column.isGeneratable)

function initialState(column: EditorColumn, row: EditorRow | undefined): FieldState {
  if (row) {
    const value = row[column.name] ?? null
    return value === null ? { mode: 'null', text: '' } : { mode: 'value', text: value }
  }
  if (column.defaultValue !== null || column.isIdentity || column.isGenerated) return { mode: 'default', text: '' }
  if (column.isNullable) return { mode: 'null', text: '' }
  return { mode: 'value', text: editorKind(column) === 'boolean' ? 'false' : '' }
}

/** What a field without a value of its own holds. */
const placeholderOf = (mode: Mode, column: EditorColumn) => (mode === 'null' ? 'NULL' : `DEFAULT${column.defaultValue ? ` (${column.defaultValue})` : ''}`)

/** Insert or edit one row, with an editor fitted to each column's type; Postgres's error shows when the write fails. */
export function RowEditorDialog({ projectRef, relation, row, open, onClose, focusColumn }: RowEditorDialogProps) {
  const toast = useToast()
  const run = useRunTableSql(projectRef)
  const initial = useMemo(() => Object.fromEntries(relation.columns.map((column) => [column.name, initialState(column, row)])), [relation, row])
  const [fields, setFields] = useState<Record<string, FieldState>>(initial)
  const [picking, setPicking] = useState<string | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const references = new Map(relation.relationships.map((r) => [r.source_column_name, r]))
  // After the dialog's own focus handling: the double-clicked cell's field, its text selected for typing over.
  useEffect(() => {
    const column = relation.columns.find((candidate) => candidate.name === focusColumn)
    if (!column) return
    const frame = window.requestAnimationFrame(() => {
      const element = document.getElementById(`te-field-${column.position}`)
      if (!(element instanceof HTMLElement) || (element as HTMLInputElement).disabled) return
      element.focus()
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) element.select()
    })
    return () => window.cancelAnimationFrame(frame)
  }, [focusColumn, relation])
  const set = (name: string, next: Partial<FieldState>) => setFields((current) => ({ ...current, [name]: { ...(current[name] ?? { mode: 'value', text: '' }), ...next } }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setProblem(undefined)
    const values: Record<string, CellInput> = {}
    for (const column of relation.columns.filter(writable)) {
      const field = fields[column.name]
      const before = initial[column.name]
      if (!field || !before) continue
      if (row && field.mode === before.mode && field.text === before.text) continue
      if (field.mode === 'value') {
        const wrong = valueProblem(editorKind(column), field.text)
        if (wrong) return setProblem(`${column.name}: ${wrong}`)
      }
      // An array left empty in the list editor is the empty array.
      const text = editorKind(column) === 'array' && field.text.trim() === '' ? '{}' : field.text
      values[column.name] = field.mode === 'value' ? { kind: 'value', text } : { kind: field.mode }
    }
    if (row && Object.keys(values).length === 0) return onClose()
    const key = { columns: relation.primary_keys, values: relation.primary_keys.map((name) => row?.[name] ?? null) }
    const sql = row ? buildUpdateRow(relation, key, values) : buildInsertRow(relation, values)
    run.mutate(sql, {
      onSuccess: () => {
        toast.success(row ? 'Row updated' : 'Row inserted')
        onClose()
      },
    })
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={row ? `Edit row of ${relation.name}` : `Insert a row into ${relation.name}`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="te-row-form" loading={run.isPending}>
            {row ? 'Save row' : 'Insert row'}
          </Button>
        </>
      }
    >
      <form id="te-row-form" className="te-row-form" onSubmit={submit}>
        {relation.columns.map((column) => {
          const field = fields[column.name] ?? { mode: 'value' as Mode, text: '' }
          const id = `te-field-${column.position}`
          const fixed = !writable(column)
          return (
            <div key={column.name} className="te-row-field">
              <label htmlFor={id} className="te-row-label">
                <span>{column.name}</span>
                <span className="te-header-type">{column.dataType}</span>
              </label>
              <div className="te-row-control">
                {field.mode === 'value' || !fixed ? (
                  // NULL and DEFAULT show as the field's placeholder: typing (or picking) gives the field a value at once.
                  <ValueEditor
                    id={id}
                    column={column}
                    text={field.mode === 'value' ? field.text : ''}
                    placeholder={field.mode === 'value' ? undefined : placeholderOf(field.mode, column)}
                    disabled={fixed}
                    reference={references.get(column.name)}
                    onChange={(text) => set(column.name, { mode: 'value', text })}
                    onPickReference={() => setPicking(column.name)}
                  />
                ) : (
                  <input id={id} className="input te-placeholder-value" disabled value={placeholderOf(field.mode, column)} />
                )}
                <Select
                  aria-label={`${column.name} value kind`}
                  className="te-mode"
                  value={field.mode}
                  disabled={fixed}
                  onChange={(event) => set(column.name, { mode: event.target.value as Mode })}
                >
                  <option value="value">value</option>
                  {column.isNullable ? <option value="null">NULL</option> : null}
                  {!row && (column.defaultValue !== null || column.isIdentity || column.isGenerated) ? <option value="default">default</option> : null}
                </Select>
              </div>
            </div>
          )
        })}
        {problem ? <Alert tone="danger" title={problem} /> : null}
        {run.error ? <SqlErrorAlert error={run.error} title={row ? 'Failed to update row' : 'Failed to insert row'} /> : null}
      </form>
      <ReferencePicker
        projectRef={projectRef}
        reference={picking ? references.get(picking) : undefined}
        onClose={() => setPicking(undefined)}
        onPick={(value) => {
          if (picking) set(picking, { mode: 'value', text: value })
          setPicking(undefined)
        }}
      />
    </Dialog>
  )
}
