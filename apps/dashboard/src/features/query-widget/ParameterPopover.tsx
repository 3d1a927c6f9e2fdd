import type { SqlParameter } from '@stratum/sql'
import { SlidersHorizontal } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/Popover'

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
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        {/* The count shown, the name said: the widget's header stays one row. */}
        <Button size="sm" variant="secondary" icon={<SlidersHorizontal size={14} aria-hidden="true" />} aria-label={`Parameters (${parameters.length})`} title="Query parameters">
          {parameters.length}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label="Query parameters">
        <form
          className="qw-params-form"
          onSubmit={(e) => {
            e.preventDefault()
            setOpen(false)
            onRun()
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
      </PopoverContent>
    </Popover>
  )
}
