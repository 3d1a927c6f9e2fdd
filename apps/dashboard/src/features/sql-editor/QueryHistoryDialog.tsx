import type { SqlHistoryEntry } from '@stratum/contracts'
import { Copy, FilePlus2 } from 'lucide-react'
import { useDeferredValue, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Spinner } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { useCopyToClipboard } from '../../components/ui/useCopyToClipboard'
import { errorMessage } from '../../data/api'
import { useSqlHistory } from '../../data/sql/useSqlHistory'
import './query-history.css'


interface QueryHistoryDialogProps {
  projectRef: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Opens the run's SQL in a new draft query. */
  onOpen: (sql: string) => void
}

function summary(entry: SqlHistoryEntry): string {
  const rows = entry.row_count === null ? '' : ` · ${entry.row_count.toLocaleString()} ${entry.row_count === 1 ? 'row' : 'rows'}`
  return `${new Date(entry.ran_at).toLocaleString()} · ${entry.duration_ms.toLocaleString()} ms${rows}`
}

/**
 * The member's own runs on this project, kept on the server (the newest 500), newest first and
 * searchable by their text. An entry opens in a new draft query, or is copied.
 */
export function QueryHistoryDialog({ projectRef, open, onOpenChange, onOpen }: QueryHistoryDialogProps) {
  const toast = useToast()
  const { copy } = useCopyToClipboard()
  const [search, setSearch] = useState('')
  const deferred = useDeferredValue(search)
  const history = useSqlHistory(projectRef, deferred, open)
  const entries = history.data?.pages.flatMap((page) => page.entries) ?? []

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Query history" description="Your runs on this project, newest first. The last 500 are kept." size="md">
      <input className="input query-history-search" type="search" aria-label="Search query history" placeholder="Search queries" value={search} onChange={(event) => setSearch(event.target.value)} />
      {history.isError ? (
        <Alert tone="danger" title="Failed to load query history">
          {errorMessage(history.error)}
        </Alert>
      ) : history.isPending ? (
        <p className="query-history-empty">
          <Spinner size={14} /> Loading query history…
        </p>
      ) : entries.length === 0 ? (
        <p className="query-history-empty">{deferred.trim() ? 'No runs match your search.' : 'No queries run yet.'}</p>
      ) : (
        <ul className="query-history-list" aria-label="Query history">
          {entries.map((entry) => (
            <li key={entry.id} className="query-history-entry">
              <div className="query-history-meta">
                <Badge tone={entry.status === 'ok' ? 'success' : 'danger'}>{entry.status === 'ok' ? 'Success' : 'Error'}</Badge>
                <span>{summary(entry)}</span>
                <span className="query-history-actions">
                  <Button size="sm" variant="ghost" icon={<FilePlus2 size={14} aria-hidden="true" />} onClick={() => onOpen(entry.query)}>
                    Open in new query
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Copy size={14} aria-hidden="true" />}
                    aria-label="Copy query"
                    onClick={() => void copy(entry.query).then((done) => done && toast.success('Copied query'))}
                  />
                </span>
              </div>
              <pre className="query-history-sql">{entry.query}</pre>
              {entry.parameters?.length ? (
                <dl className="query-history-parameters" aria-label="Parameters used">
                  {entry.parameters.map(({ name, value }) => (
                    <div key={name}>
                      <dt>:{name} =</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              {entry.error_message ? <p className="query-history-error">ERROR: {entry.error_message}</p> : null}
            </li>
          ))}
        </ul>
      )}
      {history.hasNextPage ? (
        <Button size="sm" variant="ghost" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
          Load more
        </Button>
      ) : null}
    </Dialog>
  )
}
