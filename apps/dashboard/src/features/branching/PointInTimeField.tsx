import { TextField } from '../../components/ui/Field'
import { formatTimestamp } from '../../lib/format'
import { fromUtcInputValue, toUtcInputValue, unixToIso } from './pointInTime'

interface PointInTimeFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  bounds: { earliest: number; latest: number }
  error?: string
}

/** A date and time in UTC (to the second), limited to the recoverable window; the local time is shown under it. */
export function PointInTimeField({ label, value, onChange, bounds, error }: PointInTimeFieldProps) {
  const unix = fromUtcInputValue(value)
  return (
    <TextField
      label={`${label} (UTC)`}
      type="datetime-local"
      step={1}
      min={toUtcInputValue(bounds.earliest)}
      max={toUtcInputValue(bounds.latest)}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={
        unix === undefined
          ? `Between ${formatTimestamp(unixToIso(bounds.earliest))} and ${formatTimestamp(unixToIso(bounds.latest))} UTC.`
          : `${formatTimestamp(unixToIso(unix), 'local')} in your local time.`
      }
    />
  )
}
