import { Plus, Trash2 } from 'lucide-react'
import { Button, IconButton } from '../../components/ui/Button'

interface KeyValueRowsProps {
  /** "HTTP Headers", "HTTP Parameters": names the inputs for screen readers. */
  label: string
  noun: string
  rows: Array<[string, string]>
  onChange: (rows: Array<[string, string]>) => void
}

/** Name and value pairs (headers, query parameters) edited in place. */
export function KeyValueRows({ label, noun, rows, onChange }: KeyValueRowsProps) {
  const update = (index: number, entry: [string, string]) => onChange(rows.map((row, at) => (at === index ? entry : row)))
  return (
    <fieldset className="webhook-pairs">
      <legend className="field-label">{label}</legend>
      {rows.map(([name, value], index) => (
        <div className="webhook-pair" key={index}>
          <input className="input" aria-label={`${noun} name ${index + 1}`} placeholder="Name" value={name} onChange={(event) => update(index, [event.target.value, value])} />
          <input className="input" aria-label={`${noun} value ${index + 1}`} placeholder="Value" value={value} onChange={(event) => update(index, [name, event.target.value])} />
          <IconButton label={`Remove ${noun.toLowerCase()} ${name || index + 1}`} icon={<Trash2 size={14} />} onClick={() => onChange(rows.filter((_, at) => at !== index))} />
        </div>
      ))}
      <div>
        <Button size="sm" icon={<Plus size={14} aria-hidden="true" />} onClick={() => onChange([...rows, ['', '']])}>
          Add a new {noun.toLowerCase()}
        </Button>
      </div>
    </fieldset>
  )
}
