import type { SqlStatementResult } from '@stratum/contracts'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { ResultsGrid } from '../results-grid'
import { ElapsedTime } from './ElapsedTime'
import type { RunRecord } from './results'
import type { RunningQuery } from './useSqlRunner'

interface ResultsPanelProps {
  runs: RunRecord[]
  running: RunningQuery | null
  cancelling: boolean
  onCancel: () => void
  gridKey: string
  fileName: string
}

function statementLabel(result: SqlStatementResult, index: number) {
  return `${index + 1}. ${result.command ?? 'Statement'}`
}

function StatementResult({ result, gridKey, fileName }: { result: SqlStatementResult; gridKey: string; fileName: string }) {
  if (result.columns.length === 0 || result.rows.length === 0) {
    return (
      <div className="results-message">
        <p>Success. No rows returned</p>
        {result.command && result.rowCount !== null && result.columns.length === 0 ? (
          <p className="results-message-detail">
            {result.command} {result.rowCount}
          </p>
        ) : null}
      </div>
    )
  }
  return <ResultsGrid columns={result.columns.map((c) => c.name)} rows={result.rows} stateKey={gridKey} fileName={fileName} />
}

/** The latest run of the snippet (runs are newest first): one tab per statement, or the error. */
export function ResultsPanel({ runs, running, cancelling, onCancel, gridKey, fileName }: ResultsPanelProps) {
  const [picked, setPicked] = useState<{ run: number; tab: number } | null>(null)
  const latest = runs[0]
  const results = latest?.response?.results ?? []
  const tab = picked && picked.run === latest?.id ? Math.min(picked.tab, results.length - 1) : results.length - 1

  let body
  if (running) {
    body = (
      <div className="results-message" role="status">
        <p className="results-running">
          <Spinner size={14} /> Running… <ElapsedTime since={running.startedAt} />
        </p>
        <Button size="sm" onClick={onCancel} loading={cancelling}>
          Cancel
        </Button>
      </div>
    )
  } else if (!latest) {
    body = <div className="results-message results-placeholder">Click Run or press Ctrl+Enter to execute your query.</div>
  } else {
    const current = results[tab]
    body = (
      <>
        {latest.error ? (
          <pre className="results-error" role="alert">
            ERROR: {latest.error.message}
          </pre>
        ) : null}
        {latest.response?.truncated_message ? <Alert tone="warning">{latest.response.truncated_message}</Alert> : null}
        {results.length > 1 ? (
          <div className="results-tabs" role="tablist" aria-label="Statements">
            {results.map((result, index) => (
              <button
                key={index}
                type="button"
                role="tab"
                aria-selected={index === tab}
                className="results-tab"
                onClick={() => setPicked({ run: latest.id, tab: index })}
              >
                {statementLabel(result, index)}
              </button>
            ))}
          </div>
        ) : null}
        {current ? (
          <div className="results-body" role={results.length > 1 ? 'tabpanel' : undefined}>
            <StatementResult key={`${latest.id}-${tab}`} result={current} gridKey={gridKey} fileName={fileName} />
          </div>
        ) : null}
      </>
    )
  }

  return (
    <section className="results-panel" aria-label="Results">
      <header className="results-header">
        <h2 className="results-title">Results</h2>
        {latest && !running ? (
          <span className="results-meta">
            {latest.error ? 'Failed' : 'Ran'} in {latest.elapsedMs} ms
            {latest.response?.autoLimit ? ` · limited to ${latest.response.autoLimit} rows` : ''}
            {runs.length > 1 ? ` · ${runs.length} runs this session` : ''}
          </span>
        ) : null}
      </header>
      {body}
    </section>
  )
}
