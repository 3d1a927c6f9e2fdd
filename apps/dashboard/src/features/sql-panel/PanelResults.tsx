import { SQL_PANEL_ROW_LIMIT, SQL_PANEL_ROW_LIMIT_NOTICE } from '@stratum/sql'
import { Info } from 'lucide-react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { modKeyLabel } from '../../lib/platform'
import { ResultsGrid } from '../results-grid'
import { ElapsedTime, type RunningQuery, type RunRecord } from '../sql-editor'

export const SQL_ERROR_TITLE = 'Error running SQL query'
export const NO_ROWS_TEXT = 'Success. No rows returned'

interface PanelResultsProps {
  projectRef: string
  latest: RunRecord | undefined
  running: RunningQuery | null
  cancelling: boolean
  onCancel: () => void
}

/** The first line of a Postgres error, as the panel shows it (the API docs and assistant spec's error catalogue). */
export function firstErrorLine(message: string): string {
  return message.split('\n').find((line) => line.trim() !== '')?.trim() ?? message
}

/**
 * The panel's results area (the API docs and assistant spec's panel states): running, error, results (at most 100 rows, with the
 * notice when limited), or the empty result. The last statement's result is shown.
 */
export function PanelResults({ projectRef, latest, running, cancelling, onCancel }: PanelResultsProps) {
  if (running) {
    return (
      <div className="sql-panel-state" role="status">
        <span className="sql-panel-running">
          <Spinner size={14} /> Running… <ElapsedTime since={running.startedAt} />
        </span>
        <Button size="sm" onClick={onCancel} loading={cancelling}>
          Cancel
        </Button>
      </div>
    )
  }
  if (!latest) {
    return (
      <div className="sql-panel-state">
        <p className="sql-panel-placeholder">
          Pick a template or write SQL, then click Run or press <kbd>{modKeyLabel}</kbd> <kbd>Enter</kbd>.
        </p>
      </div>
    )
  }
  if (latest.error) {
    return (
      <div className="sql-panel-state" data-state="error">
        <Alert tone="danger" title={SQL_ERROR_TITLE}>
          <code className="sql-panel-error-line">ERROR: {firstErrorLine(latest.error.message)}</code>
        </Alert>
      </div>
    )
  }

  const results = latest.response?.results ?? []
  const result = results[results.length - 1]
  const meta = results.length > 1 ? `Ran ${results.length} statements in ${latest.elapsedMs} ms` : `Ran in ${latest.elapsedMs} ms`
  if (!result || result.columns.length === 0 || result.rows.length === 0) {
    return (
      <div className="sql-panel-state" data-state="empty">
        <p className="sql-panel-success">{NO_ROWS_TEXT}</p>
        <p className="sql-panel-meta">
          {result?.command && result.columns.length === 0 ? `${result.command}${result.rowCount !== null ? ` ${result.rowCount}` : ''} · ` : ''}
          {meta}
        </p>
      </div>
    )
  }

  // The server appends the limit to a single plain select; anything else is cut here.
  const limited = result.rows.length > SQL_PANEL_ROW_LIMIT || (latest.response?.autoLimit !== undefined && result.rows.length >= SQL_PANEL_ROW_LIMIT)
  const rows = result.rows.length > SQL_PANEL_ROW_LIMIT ? result.rows.slice(0, SQL_PANEL_ROW_LIMIT) : result.rows
  return (
    <div className="sql-panel-results" data-state="results">
      <div className="sql-panel-results-bar">
        <span className="sql-panel-meta">{meta}</span>
        {limited ? (
          <span className="sql-panel-limit" role="note">
            <Info size={12} aria-hidden="true" /> {SQL_PANEL_ROW_LIMIT_NOTICE}
          </span>
        ) : null}
      </div>
      <div className="sql-panel-grid">
        <ResultsGrid key={latest.id} columns={result.columns.map((c) => c.name)} rows={rows} stateKey={`${projectRef}.side-panel`} fileName="results" />
      </div>
    </div>
  )
}
