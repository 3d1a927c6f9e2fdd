import type { PgMetaType } from '@stratum/contracts'
import { Plus, X } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button, IconButton } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import { buildAlterEnum, buildCreateEnum } from './sql/enums'

interface EnumTypeDialogProps {
  schema: string
  /** The type edited; undefined to create one. */
  existing: PgMetaType | undefined
  onClose: () => void
  onReview: (sql: string, name: string) => void
}

/** A value row: `original` is the value's label in the database (renamed when `label` differs); new rows have none. */
interface ValueRow {
  key: number
  original?: string
  label: string
}

/** The rows, and the key the next added row gets (keys stay stable while rows are typed into or removed). */
interface ValueRows {
  rows: ValueRow[]
  next: number
}

function initialRows(existing: PgMetaType | undefined): ValueRows {
  const rows = existing ? existing.enums.map((label, key) => ({ key, label, original: label })) : [{ key: 0, label: '' }]
  return { rows, next: rows.length }
}

/**
 * Creating an enumerated type with its values, or editing one: renaming its values and adding new ones at the end
 * (Postgres cannot remove a value from an enum).
 */
export function EnumTypeDialog({ schema, existing, onClose, onReview }: EnumTypeDialogProps) {
  const [name, setName] = useState(existing?.name ?? '')
  const [{ rows }, setRows] = useState(() => initialRows(existing))
  const [error, setError] = useState<string | null>(null)
  const setLabel = (key: number, label: string) => {
    setError(null)
    setRows((current) => ({ ...current, rows: current.rows.map((entry) => (entry.key === key ? { ...entry, label } : entry)) }))
  }
  const addRow = () => setRows((current) => ({ rows: [...current.rows, { key: current.next, label: '' }], next: current.next + 1 }))
  const removeRow = (key: number) => setRows((current) => ({ ...current, rows: current.rows.filter((entry) => entry.key !== key) }))

  const review = () => {
    try {
      if (!existing) return onReview(buildCreateEnum({ schema, name }, rows.map((entry) => entry.label)), name)
      const sql = buildAlterEnum(existing, {
        renamed: rows.filter((entry) => entry.original !== undefined).map((entry) => ({ from: entry.original!, to: entry.label })),
        added: rows.filter((entry) => entry.original === undefined).map((entry) => entry.label),
      })
      if (!sql) return setError('Nothing changed: rename a value or add one')
      onReview(sql, existing.name)
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem))
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={existing ? `Edit type ${existing.name}` : 'Create a new enumerated type'}
      description={existing ? 'Rename values or add new ones at the end. Postgres cannot remove a value from an enumerated type.' : `A type whose values are one of a fixed list, in schema ${schema}.`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" onClick={review}>
            Review SQL
          </Button>
        </>
      }
    >
      {existing ? null : <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} autoFocus spellCheck={false} />}
      <fieldset className="dbo-fieldset dbo-values">
        <legend>Values</legend>
        {rows.map((entry, index) => (
          <div className="dbo-value-row" key={entry.key}>
            <input
              className="input mono"
              aria-label={`Value ${index + 1}`}
              value={entry.label}
              onChange={(event) => setLabel(entry.key, event.target.value)}
              spellCheck={false}
            />
            {entry.original === undefined && rows.length > 1 ? (
              <IconButton size="sm" icon={<X size={14} />} label={`Remove value ${index + 1}`} onClick={() => removeRow(entry.key)} />
            ) : null}
          </div>
        ))}
        <div>
          <Button size="sm" variant="ghost" icon={<Plus size={14} aria-hidden="true" />} onClick={addRow}>
            Add value
          </Button>
        </div>
      </fieldset>
      {error ? (
        <Alert tone="danger" title="Check the type">
          {error}
        </Alert>
      ) : null}
    </Dialog>
  )
}
