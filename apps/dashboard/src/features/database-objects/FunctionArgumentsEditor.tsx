import { Plus, Trash2 } from 'lucide-react'
import { Button, IconButton } from '../../components/ui/Button'
import { ARGUMENT_MODES, NEW_ARGUMENT, type ArgumentMode, type FunctionArgument } from './sql/function-arguments'

const COMMON_ARGUMENT_TYPES = ['text', 'integer', 'bigint', 'boolean', 'numeric', 'uuid', 'jsonb', 'timestamptz', 'date', 'text[]', 'integer[]']

interface FunctionArgumentsEditorProps {
  args: readonly FunctionArgument[]
  onChange: (args: FunctionArgument[]) => void
  /** Switches the form to one SQL text field (for lists the rows cannot express). */
  onEditAsText: () => void
}

/** One row per argument: mode, name, type and default, as Studio's function editor lists them. */
export function FunctionArgumentsEditor({ args, onChange, onEditAsText }: FunctionArgumentsEditorProps) {
  const set = (index: number, change: Partial<FunctionArgument>) => onChange(args.map((arg, at) => (at === index ? { ...arg, ...change } : arg)))
  return (
    <fieldset className="dbo-fieldset dbo-args">
      <legend>Arguments</legend>
      {args.length === 0 ? <p className="muted dbo-args-empty">No arguments.</p> : null}
      {args.length > 0 ? (
        <div className="dbo-args-grid" role="table" aria-label="Arguments">
          <div role="row" className="dbo-args-head">
            {['Mode', 'Name', 'Type', 'Default'].map((label) => (
              <span key={label} role="columnheader">
                {label}
              </span>
            ))}
            <span role="columnheader" className="visually-hidden">
              Remove
            </span>
          </div>
          {args.map((arg, index) => (
            <div role="row" key={index} className="dbo-args-row">
              <select className="input select" aria-label={`Mode of argument ${index + 1}`} value={arg.mode} onChange={(event) => set(index, { mode: event.target.value as ArgumentMode })}>
                {ARGUMENT_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {mode}
                  </option>
                ))}
              </select>
              <input className="input mono" aria-label={`Name of argument ${index + 1}`} value={arg.name} placeholder="name" spellCheck={false} onChange={(event) => set(index, { name: event.target.value })} />
              <input
                className="input mono"
                aria-label={`Type of argument ${index + 1}`}
                value={arg.type}
                list="dbo-argument-types"
                spellCheck={false}
                onChange={(event) => set(index, { type: event.target.value })}
              />
              <input
                className="input mono"
                aria-label={`Default of argument ${index + 1}`}
                value={arg.defaultValue}
                placeholder={arg.mode === 'OUT' || arg.mode === 'VARIADIC' ? '' : 'none'}
                disabled={arg.mode === 'OUT' || arg.mode === 'VARIADIC'}
                spellCheck={false}
                onChange={(event) => set(index, { defaultValue: event.target.value })}
              />
              <IconButton label={`Remove argument ${index + 1}`} icon={<Trash2 size={14} aria-hidden="true" />} onClick={() => onChange(args.filter((_, at) => at !== index))} />
            </div>
          ))}
        </div>
      ) : null}
      <datalist id="dbo-argument-types">
        {COMMON_ARGUMENT_TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      <div className="dbo-args-actions">
        <Button size="sm" icon={<Plus size={14} aria-hidden="true" />} onClick={() => onChange([...args, { ...NEW_ARGUMENT }])}>
          Add argument
        </Button>
        <Button size="sm" variant="ghost" onClick={onEditAsText}>
          Edit as SQL
        </Button>
      </div>
    </fieldset>
  )
}
