import { formatArrayLiteral, parseArrayLiteral } from '@stratum/sql'
import { Link2 } from 'lucide-react'
import { Button } from '../../components/ui/Button'
import { Select } from '../../components/ui/Field'
import type { EditorColumn, EditorRelationship } from '../../data/table-editor/types'

/** How a column's value is edited, from its type. */
export type EditorKind = 'boolean' | 'enum' | 'number' | 'json' | 'date' | 'timestamp' | 'array' | 'long-text' | 'text'

export function editorKind(column: EditorColumn): EditorKind {
  if (column.typeCategory === 'A') return 'array'
  if (column.enum.length) return 'enum'
  if (column.format === 'bool') return 'boolean'
  if (column.format === 'json' || column.format === 'jsonb') return 'json'
  if (column.format === 'date') return 'date'
  if (column.format === 'timestamp' || column.format === 'timestamptz') return 'timestamp'
  if (column.typeCategory === 'N') return 'number'
  if (column.format === 'text') return 'long-text'
  return 'text'
}

/** A problem with the text that Postgres would refuse anyway, said before the round trip. */
export function valueProblem(kind: EditorKind, text: string): string | undefined {
  if (kind === 'json') {
    try {
      JSON.parse(text)
    } catch {
      return 'Invalid JSON'
    }
  }
  if (kind === 'number' && text.trim() !== '' && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^(NaN|-?Infinity)$/.test(text.trim())) return 'Not a number'
  if (kind === 'array' && text.trim() !== '' && !text.trim().startsWith('{')) return 'Not an array literal such as {a,b}'
  return undefined
}

interface ValueEditorProps {
  id: string
  column: EditorColumn
  text: string
  disabled: boolean
  reference: EditorRelationship | undefined
  onChange: (text: string) => void
  onPickReference: () => void
  /** Shown while the field holds no value of its own (NULL, the column's default): typing gives it one. */
  placeholder?: string
}

/** The control for one column's value, fitted to its type. */
export function ValueEditor({ id, column, text, disabled, reference, onChange, onPickReference, placeholder }: ValueEditorProps) {
  const kind = editorKind(column)
  if (kind === 'boolean' || kind === 'enum') {
    const options = kind === 'boolean' ? ['true', 'false'] : column.enum
    return (
      <Select id={id} value={text} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        {options.includes(text) ? null : <option value={text}>{text === '' ? (placeholder ?? 'Choose…') : text}</option>}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </Select>
    )
  }
  if (kind === 'json' || kind === 'long-text') {
    return <textarea id={id} className="input te-textarea" rows={kind === 'json' ? 5 : 3} value={text} placeholder={placeholder} disabled={disabled} onChange={(event) => onChange(event.target.value)} />
  }
  if (kind === 'array') {
    // A new row's array starts empty; a value this cannot read as a list (nested arrays) is edited as its literal.
    const items = text.trim() === '' ? [] : parseArrayLiteral(text)
    if (items === undefined) return <input id={id} className="input" value={text} placeholder={placeholder} disabled={disabled} onChange={(event) => onChange(event.target.value)} />
    return (
      <textarea
        id={id}
        className="input te-textarea"
        rows={Math.min(6, Math.max(2, items.length + 1))}
        placeholder={placeholder ?? 'One item per line'}
        value={items.map((item) => item ?? 'NULL').join('\n')}
        disabled={disabled}
        onChange={(event) => onChange(formatArrayLiteral(event.target.value === '' ? [] : event.target.value.split('\n').map((line) => (line === 'NULL' ? null : line))))}
      />
    )
  }
  const input = (
    <input
      id={id}
      className="input"
      type={kind === 'date' ? 'date' : 'text'}
      inputMode={kind === 'number' ? 'decimal' : undefined}
      value={text}
      placeholder={placeholder}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    />
  )
  if (kind === 'timestamp' || reference) {
    return (
      <div className="te-input-row">
        {input}
        {kind === 'timestamp' ? (
          <Button size="sm" variant="ghost" disabled={disabled} onClick={() => onChange(new Date().toISOString())}>
            Now
          </Button>
        ) : null}
        {reference ? (
          <Button size="sm" variant="secondary" disabled={disabled} icon={<Link2 size={13} aria-hidden="true" />} onClick={onPickReference}>
            Select a row
          </Button>
        ) : null}
      </div>
    )
  }
  return input
}
