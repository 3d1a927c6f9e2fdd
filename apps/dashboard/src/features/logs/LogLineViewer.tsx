import { X } from 'lucide-react'
import { IconButton } from '../../components/ui/Button'
import { CopyButton } from '../../components/ui/CopyButton'
import { Spinner } from '../../components/ui/Spinner'
import { useLogQuery, type LogQueryRun } from '../../data/logs/logQuery'
import { errorMessage } from '../../data/api'
import { readableRow } from './rows'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

interface LogLineViewerProps {
  projectRef: string
  row: Record<string, unknown>
  /** The window of the run the row came from: the full line is read within it. */
  window: { start: string; end: string }
  onClose: () => void
}

/**
 * One log line in full: when the row carries the line's id, its whole event (message, source and metadata) is
 * read again from the store with a log query, whatever columns the user's query selected; an aggregate row
 * (no id) shows as it is.
 */
export function LogLineViewer({ projectRef, row, window, onClose }: LogLineViewerProps) {
  const id = typeof row.id === 'string' && UUID.test(row.id) ? row.id : null
  const run: LogQueryRun | null = id
    ? { sql: `select id, timestamp, event_message, source, metadata from logs where id = '${id}'`, start: window.start, end: window.end }
    : null
  const full = useLogQuery(projectRef, run)
  const event = id ? full.data?.result[0] : row
  const text = event ? JSON.stringify(readableRow(event), null, 2) : ''

  return (
    <aside className="log-viewer" aria-label="Log line" data-testid="log-line-viewer">
      <header className="log-viewer-header">
        <h2 className="log-viewer-title">{id ? 'Log line' : 'Row'}</h2>
        <div className="log-viewer-actions">
          {text ? <CopyButton value={text} what="the log line as JSON" /> : null}
          <IconButton label="Close the log line" icon={<X size={14} aria-hidden="true" />} onClick={onClose} />
        </div>
      </header>
      {id && full.isPending ? (
        <div className="log-viewer-state">
          <Spinner /> Reading the log line…
        </div>
      ) : id && (full.error || full.data?.error) ? (
        <p className="log-viewer-state" role="alert">
          {full.data?.error ?? errorMessage(full.error)}
        </p>
      ) : id && !event ? (
        <p className="log-viewer-state">This line is no longer in the log store.</p>
      ) : (
        <pre className="log-viewer-json">{text}</pre>
      )}
    </aside>
  )
}
