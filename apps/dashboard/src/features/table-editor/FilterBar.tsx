import { FILTER_OPERATORS, filterOperatorAbbrev, type FilterOperator, type GridFilter } from '@stratum/sql'
import { X } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button, IconButton } from '../../components/ui/Button'
import { Select } from '../../components/ui/Field'
import { withoutFilterAt, type GridFiltersChange } from '../../lib/gridFilterChanges'

interface FilterBarProps {
  columns: readonly string[]
  filters: readonly GridFilter[]
  open: boolean
  onChange: (change: GridFiltersChange) => void
}

const PLACEHOLDERS: Partial<Record<FilterOperator, string>> = { in: 'a, b, "c,d"', is: 'null, not null, true, false', '~~': '%pattern%', '~~*': '%pattern%' }

/** Filters run by the database (the spec's ten operators), kept in the URL as column:abbrev:value. */
export function FilterBar({ columns, filters, open, onChange }: FilterBarProps) {
  const [column, setColumn] = useState(columns[0] ?? '')
  const [operator, setOperator] = useState<FilterOperator>('=')
  const [value, setValue] = useState('')
  const add = (event: FormEvent) => {
    event.preventDefault()
    if (!column) return
    onChange((latest) => [...latest, { column, operator, value }])
    setValue('')
  }
  return (
    <div className="te-filters">
      {filters.map((filter, index) => (
        <span key={`${filter.column}-${index}`} className="te-filter-chip">
          <code>
            {filter.column} {filterOperatorAbbrev(filter.operator)} {filter.value}
          </code>
          <IconButton
            size="sm"
            label={`Remove filter on ${filter.column}`}
            icon={<X size={12} aria-hidden="true" />}
            onClick={() => onChange((latest) => withoutFilterAt(latest, index, filter))}
          />
        </span>
      ))}
      {open ? (
        <form className="te-filter-form" onSubmit={add}>
          <Select aria-label="Filter column" value={column} onChange={(event) => setColumn(event.target.value)}>
            {columns.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
          <Select aria-label="Filter operator" value={operator} onChange={(event) => setOperator(event.target.value as FilterOperator)}>
            {FILTER_OPERATORS.map(({ operator: op, abbrev }) => (
              <option key={abbrev} value={op}>
                {op} ({abbrev})
              </option>
            ))}
          </Select>
          <input
            className="input te-filter-value"
            aria-label="Filter value"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder={PLACEHOLDERS[operator] ?? 'Value'}
          />
          <Button size="sm" type="submit">
            Apply filter
          </Button>
        </form>
      ) : null}
    </div>
  )
}
