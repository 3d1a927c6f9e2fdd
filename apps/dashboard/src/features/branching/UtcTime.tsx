import { Tooltip } from '../../components/ui/Tooltip'
import { formatTimestamp } from '../../lib/format'

/** A moment in UTC, with the local time on hover (as the upgrade screen shows its start time). */
export function UtcTime({ iso }: { iso: string }) {
  return (
    <Tooltip content={`${formatTimestamp(iso, 'local')} (local time)`}>
      <time dateTime={iso} tabIndex={0}>
        {formatTimestamp(iso, 'utc')} (UTC)
      </time>
    </Tooltip>
  )
}
