import { Select } from '../../components/ui/Field'
import type { RunRecord } from './results'
import './result-history.css'

const SQL_PREVIEW_LENGTH = 40

/** A short label for a run in the history list: when, what, and how it ended. */
export function runLabel(run: RunRecord, index: number, total: number): string {
  const time = new Date(run.ranAt).toLocaleTimeString()
  const sql = run.sql.replace(/\s+/g, ' ').trim()
  const preview = sql.length > SQL_PREVIEW_LENGTH ? `${sql.slice(0, SQL_PREVIEW_LENGTH)}…` : sql
  const outcome = run.error ? 'failed' : `${run.elapsedMs} ms`
  return `#${total - index} · ${time} · ${preview} · ${outcome}`
}

interface ResultHistorySelectProps {
  runs: RunRecord[]
  shownId: number
  onShow: (runId: number) => void
}

/**
 * The snippet's earlier runs this session (kept newest first, as the SQL editor spec's results history says): picking one
 * shows its results again without re-running anything.
 */
export function ResultHistorySelect({ runs, shownId, onShow }: ResultHistorySelectProps) {
  if (runs.length < 2) return null
  return (
    <Select className="result-history-select" aria-label="Result history" value={shownId} onChange={(event) => onShow(Number(event.target.value))}>
      {runs.map((run, index) => (
        <option key={run.id} value={run.id}>
          {runLabel(run, index, runs.length)}
        </option>
      ))}
    </Select>
  )
}
