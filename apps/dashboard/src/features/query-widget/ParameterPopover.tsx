import type { SqlParameter } from '@stratum/sql'
import { SlidersHorizontal } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'

interface ParameterPopoverProps {
  parameters: readonly SqlParameter[]
  values: Record<string, string>
  onChange: (values: Record<string, string>) => void
  onRun: () => void
}

/** One input per `:name` of the SQL (a select for enums), seeded from the `@set` defaults. */
export function ParameterPopover({ parameters, values, onChange, onRun }: ParameterPopoverProps) {
  const [open, setOpen] = useState(false)
  if (parameters.length === 0) return null
  return (
    <div className="qw-params">
      <Button size="sm" variant="secondary" icon={<SlidersHorizontal size={14} aria-hidden="true" />} aria-expanded={open} onClick={() => setOpen(!open)}>
        Parameters ({parameters.length})
      </Button>
      {open ? (
        <form
          className="qw-params-popover"
          role="dialog"
          aria-label="Query parameters"
          onSubmit={(e) => {
            e.preventDefault()
            setOpen(false)
            onRun()
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false)
          }}
        >
          {parameters.map((parameter) => {
            const value = values[parameter.name] ?? parameter.value
            const set = (next: string) => onChange({ ...values, [parameter.name]: next })
            return (
              <label key={parameter.name} className="qw-param">
                <span className="qw-param-name">
                  :{parameter.name}
                  {parameter.type ? <span className="qw-param-type"> {parameter.type}</span> : null}
                </span>
                {parameter.type === 'enum' && parameter.possibleValues ? (
                  <select className="input select" aria-label={parameter.name} value={value} onChange={(e) => set(e.target.value)}>
                    {parameter.possibleValues.map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input className="input" aria-label={parameter.name} value={value} onChange={(e) => set(e.target.value)} />
                )}
              </label>
            )
          })}
          <div className="qw-params-actions">
            <Button size="sm" variant="ghost" type="button" onClick={() => onChange({})}>
              Reset
            </Button>
            <Button size="sm" variant="primary" type="submit">
              Run with parameters
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  )
}
