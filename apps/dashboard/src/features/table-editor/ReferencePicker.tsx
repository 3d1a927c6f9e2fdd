import { useDeferredValue, useState } from 'react'
import { Dialog } from '../../components/ui/Dialog'
import { Spinner } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import type { EditorRelationship } from '../../data/table-editor/types'
import { referencedRowsSql, useReferencedRows } from '../../data/table-editor/useReferencedRows'

interface ReferencePickerProps {
  projectRef: string
  reference: EditorRelationship | undefined
  onPick: (value: string) => void
  onClose: () => void
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** Rows of the referenced table, searched by the referenced column; a click takes that row's key. */
export function ReferencePicker({ projectRef, reference, onPick, onClose }: ReferencePickerProps) {
  const [search, setSearch] = useState('')
  const deferred = useDeferredValue(search)
  const sql = reference ? referencedRowsSql(reference.target_table_schema, reference.target_table_name, reference.target_column_name, deferred) : ''
  const rows = useReferencedRows(reference ? projectRef : undefined, sql)
  const target = reference?.target_column_name ?? ''
  // The referenced column first (its cells are the buttons), then a few others to recognise the row by.
  const columns = rows.data?.[0] ? [target, ...Object.keys(rows.data[0]).filter((name) => name !== target)].slice(0, 5) : []
  return (
    <Dialog
      open={reference !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={reference ? `Select a row of ${reference.target_table_name}` : ''}
      description={reference ? `The value of ${reference.target_column_name} is used.` : undefined}
    >
      <input
        className="input"
        type="search"
        aria-label={`Search ${reference?.target_column_name ?? ''}`}
        placeholder={`Search ${reference?.target_column_name ?? ''}…`}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className="te-picker">
        {rows.isPending ? (
          <Spinner size={14} />
        ) : rows.isError ? (
          <p className="te-error">{errorMessage(rows.error)}</p>
        ) : rows.data.length === 0 ? (
          <p className="te-muted">No rows</p>
        ) : (
          <table className="te-picker-table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column}>{column}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.data.map((row, index) => (
                <tr key={index}>
                  {columns.map((column) => (
                    <td key={column}>
                      {column === reference?.target_column_name ? (
                        <button type="button" className="te-picker-pick" onClick={() => onPick(cellText(row[column]))}>
                          {cellText(row[column])}
                        </button>
                      ) : (
                        cellText(row[column])
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Dialog>
  )
}
