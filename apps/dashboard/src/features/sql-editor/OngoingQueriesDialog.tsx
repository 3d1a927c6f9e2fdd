import { RefreshCw } from 'lucide-react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Spinner } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useOngoingQueries } from '../../data/sql/useOngoingQueries'
import { useSignalQuery, type SignalKind } from '../../data/sql/useSignalQuery'
import { TableHead } from '../../components/ui/TableHead'


function since(start: string | null, now: number): string {
  if (!start) return '–'
  const seconds = Math.max(0, Math.round((now - Date.parse(start)) / 1000))
  return seconds < 60 ? `${seconds}s ago` : `${Math.floor(seconds / 60)}m ${seconds % 60}s ago`
}

interface OngoingQueriesDialogProps {
  projectRef: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** sql.write: needed to terminate a backend (and to cancel one not run on the read-only connection). */
  canWrite: boolean
}

/** The queries running on the project's database from the SQL editor, refreshed every 5 s, with Cancel and Terminate. */
export function OngoingQueriesDialog({ projectRef, open, onOpenChange, canWrite }: OngoingQueriesDialogProps) {
  const toast = useToast()
  const ongoing = useOngoingQueries(projectRef, open)
  const signal = useSignalQuery()
  const rows = ongoing.data ?? []
  const now = ongoing.dataUpdatedAt

  const act = (pid: number, how: SignalKind) =>
    signal.mutate(
      { ref: projectRef, pid, how },
      {
        onSuccess: (done) =>
          done
            ? toast.success(how === 'cancel' ? `Cancelled query ${pid}` : `Terminated backend ${pid}`)
            : toast.info(`Query ${pid} is no longer running`),
        onError: (error) => toast.error(`Failed to ${how} query: ${errorMessage(error)}`),
      },
    )

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Ongoing queries"
      description="Queries running on this project's database from the SQL editor. Refreshed every 5 seconds."
      size="md"
    >
      <div className="ongoing-toolbar">
        <span className="results-meta" aria-live="polite">
          {ongoing.isPending ? 'Loading…' : `${rows.length} ${rows.length === 1 ? 'query' : 'queries'} running`}
        </span>
        <Button size="sm" variant="ghost" icon={<RefreshCw size={14} aria-hidden="true" />} loading={ongoing.isFetching} onClick={() => void ongoing.refetch()}>
          Refresh
        </Button>
      </div>
      {ongoing.isError ? (
        <Alert tone="danger" title="Failed to load ongoing queries">
          {errorMessage(ongoing.error)}
        </Alert>
      ) : ongoing.isPending ? (
        <div className="ongoing-empty">
          <Spinner size={14} /> Loading ongoing queries…
        </div>
      ) : rows.length === 0 ? (
        <p className="ongoing-empty">No queries are running.</p>
      ) : (
        <div className="ongoing-table-wrap">
          <table className="ongoing-table" aria-label="Ongoing queries">
            <TableHead columns={['PID', 'Query', 'Started', 'State', 'User', { hidden: 'Actions' }]} />
            <tbody>
              {rows.map((row) => {
                const busy = signal.isPending && signal.variables.pid === row.pid
                return (
                  <tr key={row.pid}>
                    <td className="ongoing-pid">{row.pid}</td>
                    <td>
                      <code className="ongoing-query" title={row.query}>
                        {row.query}
                      </code>
                    </td>
                    <td title={row.query_start ?? undefined}>{since(row.query_start, now)}</td>
                    <td>{row.state ?? '–'}</td>
                    <td>{row.usename ?? '–'}</td>
                    <td className="ongoing-actions">
                      <Button size="sm" loading={busy && signal.variables.how === 'cancel'} disabled={busy} onClick={() => act(row.pid, 'cancel')} aria-label={`Cancel query ${row.pid}`}>
                        Cancel
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        loading={busy && signal.variables.how === 'terminate'}
                        disabled={busy || !canWrite}
                        disabledReason={!canWrite ? 'You need permission to run SQL with write access to terminate a backend' : undefined}
                        onClick={() => act(row.pid, 'terminate')}
                        aria-label={`Terminate query ${row.pid}`}
                      >
                        Terminate
                      </Button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </Dialog>
  )
}
