import type { LogQueryResponse } from '@stratum/contracts'
import type { UseQueryResult } from '@tanstack/react-query'
import { useMemo } from 'react'
import { Alert } from '../../components/ui/Alert'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { ResultsGrid } from '../results-grid'
import { LogLineViewer } from './LogLineViewer'
import { readableRow } from './rows'
import type { Window } from './time-range'

/** The grid grows with its rows up to this height (the viewer beside it has it too). */
const GRID_MAX_HEIGHT = 460
/** Toolbar, header row, hint and borders around the rows. */
const GRID_CHROME = 100
/** The grid's table is at least 120px tall (results-grid.css), with its toolbar and hint around it. */
const GRID_MIN_HEIGHT = 190
const ROW_HEIGHT = 30

/** The run's refusal (the spec's texts among them) or failure, in the server's own words. */
export function LogsQueryError({ query }: { query: UseQueryResult<LogQueryResponse> }) {
  if (query.error) {
    return (
      <Alert tone="danger" title="The log query failed">
        <span data-testid="logs-error">{errorMessage(query.error)}</span>
      </Alert>
    )
  }
  if (!query.data?.error) return null
  return (
    <Alert tone="danger" title="The log query did not run">
      <span data-testid="logs-error">{query.data.error}</span>
    </Alert>
  )
}

interface LogsResultsProps {
  projectRef: string
  query: UseQueryResult<LogQueryResponse>
  window: Window
  selected: Record<string, unknown> | null
  onSelect: (row: Record<string, unknown> | null) => void
}

/** The run's rows in the results grid ('Success. No rows returned' when none), and the viewer of the clicked line. */
export function LogsResults({ projectRef, query, window, selected, onSelect }: LogsResultsProps) {
  const result = query.data?.result
  // The grid shows readable times; a click maps its row back to the row as answered.
  const { rows, originals, columns } = useMemo(() => {
    const originals = new Map<Record<string, unknown>, Record<string, unknown>>()
    const rows = (result ?? []).map((row) => {
      const shown = readableRow(row)
      originals.set(shown, row)
      return shown
    })
    return { rows, originals, columns: result?.length ? Object.keys(result[0]!) : [] }
  }, [result])

  if (query.isPending && query.fetchStatus !== 'idle') return <LoadingState label="Running the log query…" />
  // A refusal or failure shows under the editor (LogsQueryError); nothing to list here then.
  if (query.error || query.data?.error) return null
  if (!result) return null
  if (!result.length) return <p className="logs-empty muted">Success. No rows returned</p>

  return (
    <div className={selected ? 'logs-results with-viewer' : 'logs-results'}>
      <div className="logs-grid" style={{ height: selected ? GRID_MAX_HEIGHT : Math.min(GRID_MAX_HEIGHT, Math.max(GRID_MIN_HEIGHT, GRID_CHROME + rows.length * ROW_HEIGHT)) }}>
        <ResultsGrid columns={columns} rows={rows} stateKey={`${projectRef}.logs`} fileName="logs" onRowClick={(row) => onSelect(originals.get(row) ?? row)} />
      </div>
      {selected ? <LogLineViewer projectRef={projectRef} row={selected} window={window} onClose={() => onSelect(null)} /> : null}
    </div>
  )
}
