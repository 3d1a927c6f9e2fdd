import type { SqlStatementResult } from '@stratum/contracts'
import { useQueryClient } from '@tanstack/react-query'
import type { ContentItem } from '@stratum/contracts'
import { useState } from 'react'
import { useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { contentKeys } from '../../data/content/keys'
import { useSaveSnippet } from '../../data/content/useSaveSnippet'
import { useSnippet } from '../../data/content/useSnippet'
import { useExportQuery } from '../../data/sql/useExportQuery'
import { useToast } from '../../components/ui/Toast'
import { ResultsGrid, typeName, type WholeResultExport } from '../results-grid'
import { DEFAULT_CHART, ResultChart, ViewSwitch, type ChartConfig } from '../query-widget'
import { getDraft, queueSnippetSave } from './drafts'
import { ElapsedTime } from './ElapsedTime'
import type { RunRecord } from './results'
import { MessagesView, QueryErrorView } from './QueryMessages'
import { ResultHistorySelect } from './ResultHistorySelect'
import './results-streaming.css'
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

/** The snippet's chart settings (content.chart), saved through the snippet save path. */
function useSnippetChart(): [ChartConfig, (next: ChartConfig) => void] {
  const { ref = '', id } = useParams()
  const queryClient = useQueryClient()
  const toast = useToast()
  const snippet = useSnippet(ref, id, false)
  const save = useSaveSnippet()
  const [local, setLocal] = useState<ChartConfig | null>(null)
  const chart = { ...DEFAULT_CHART, ...snippet.data?.content.chart, ...local }
  const update = (next: ChartConfig) => {
    setLocal(next)
    if (!id || !queryClient.getQueryData<ContentItem>(contentKeys.snippet(ref, id))) return
    // After the snippet's other saves (Cumulative then Labels at once sent two PUTs the server could take in either
    // order), from the snippet as the previous save left it.
    void queueSnippetSave(ref, id, async () => {
      const current = queryClient.getQueryData<ContentItem>(contentKeys.snippet(ref, id))
      if (!current) return
      await save.mutateAsync({ ref, snippet: { ...current, content: { ...current.content, chart: next } }, changes: { sql: getDraft(ref, current.id).sql ?? current.content.sql } })
    }).catch((error: unknown) => toast.error(`Failed to save chart: ${errorMessage(error)}`))
  }
  return [chart, update]
}

/**
 * The export of a statement's whole result by the server (all rows, not only those the editor
 * loaded): the browser downloads the file as the server streams it.
 */
function useWholeResultExport(sql: string, fileName: string): WholeResultExport {
  const { ref = '' } = useParams()
  const toast = useToast()
  const exporting = useExportQuery()
  const [pending, setPending] = useState<'csv' | 'json' | null>(null)
  return {
    pending,
    onExport: (format) => {
      setPending(format)
      exporting.mutate(
        { ref, query: sql, format, fileName },
        {
          onSuccess: (ticket) => toast.success(`Downloading ${ticket.file_name}`),
          onError: (error) => toast.error(`Failed to export results: ${errorMessage(error)}`),
          onSettled: () => setPending(null),
        },
      )
    },
  }
}

/** What the whole-result export runs: the statement without the editor's row limit, when the server added one. */
function exportSqlOf(run: RunRecord, result: SqlStatementResult): string | undefined {
  if (result.command !== 'SELECT') return undefined
  return run.response?.autoLimit !== undefined ? run.sql : result.statement
}

function StatementResult({ result, gridKey, fileName, exportSql }: { result: SqlStatementResult; gridKey: string; fileName: string; exportSql?: string }) {
  const [chart, setChart] = useSnippetChart()
  const wholeResultExport = useWholeResultExport(exportSql ?? '', fileName)
  if (result.columns.length === 0 || result.rows.length === 0) {
    return (
      <div className="results-message">
        <p>Success. No rows returned</p>
        {result.command && result.columns.length === 0 ? (
          <p className="results-message-detail">{result.command_tag ?? `${result.command} ${result.rowCount ?? ''}`.trim()}</p>
        ) : null}
      </div>
    )
  }
  const columns = result.columns.map((c) => c.name)
  const view = chart.view ?? 'table'
  return (
    <>
      <div className="results-view-bar">
        <ViewSwitch view={view} onChange={(next) => setChart({ ...chart, view: next })} />
      </div>
      {view === 'chart' ? (
        <ResultChart columns={columns} rows={result.rows} config={chart} onChange={setChart} />
      ) : (
        <ResultsGrid
          columns={columns}
          columnTypes={result.columns.map((column) => typeName(column.data_type_id))}
          rowNumbers
          rows={result.rows}
          stateKey={gridKey}
          fileName={fileName}
          wholeResultExport={exportSql ? wholeResultExport : undefined}
        />
      )}
    </>
  )
}

/**
 * A run of the snippet (runs are newest first): one tab per statement, or the error. The latest
 * run is shown unless the user picked an earlier one from the history since it arrived.
 */
export function ResultsPanel({ runs, running, cancelling, onCancel, gridKey, fileName }: ResultsPanelProps) {
  const [picked, setPicked] = useState<{ run: number; tab: number | 'messages' } | null>(null)
  const [fromHistory, setFromHistory] = useState<{ runId: number; newestAtPick: number } | null>(null)
  const newest = runs[0]
  const latest = (fromHistory && fromHistory.newestAtPick === newest?.id && runs.find((run) => run.id === fromHistory.runId)) || newest
  const results = latest?.response?.results ?? []
  const pickedTab = picked && picked.run === latest?.id ? picked.tab : undefined
  // The Messages tab when picked, or when there is no result to show.
  const showMessages = pickedTab === 'messages' || results.length === 0
  const tab = typeof pickedTab === 'number' ? Math.min(pickedTab, results.length - 1) : results.length - 1

  let body
  if (running) {
    // Rows stream in while the query runs: the latest result's rows so far show under the bar.
    const arriving = running.partial?.results.findLast((result) => result && result.columns.length > 0)
    const bar = (
      <div className={arriving ? 'results-running-bar' : 'results-message'} role="status">
        <p className="results-running">
          <Spinner size={14} /> Running… <ElapsedTime since={running.startedAt} />
          {arriving ? <span className="results-meta"> · {arriving.rows.length.toLocaleString()} rows so far</span> : null}
        </p>
        <Button size="sm" onClick={onCancel} loading={cancelling}>
          Cancel
        </Button>
      </div>
    )
    body = arriving ? (
      <>
        {bar}
        <div className="results-body">
          <ResultsGrid
            columns={arriving.columns.map((column) => column.name)}
            columnTypes={arriving.columns.map((column) => typeName(column.data_type_id))}
            rowNumbers
            rows={arriving.rows}
            stateKey={gridKey}
            fileName={fileName}
          />
        </div>
      </>
    ) : (
      bar
    )
  } else if (!latest) {
    body = <div className="results-message results-placeholder">Click Run or press Ctrl+Enter to execute your query.</div>
  } else {
    const current = results[tab]
    const noticeCount = (latest.response?.notices?.length ?? 0) + (latest.response?.warnings?.length ?? 0)
    body = (
      <>
        {latest.error ? <QueryErrorView error={latest.error} sql={latest.sql} /> : null}
        {latest.response?.truncated_message ? <Alert tone="warning">{latest.response.truncated_message}</Alert> : null}
        {(latest.response?.warnings ?? []).map((warning) => (
          <Alert key={warning} tone="warning">
            {warning}
          </Alert>
        ))}
        <div className="results-tabs" role="tablist" aria-label="Statements">
          {results.map((result, index) => (
            <button
              key={index}
              type="button"
              role="tab"
              aria-selected={!showMessages && index === tab}
              className="results-tab"
              onClick={() => setPicked({ run: latest.id, tab: index })}
            >
              {results.length > 1 ? statementLabel(result, index) : 'Results'}
            </button>
          ))}
          <button type="button" role="tab" aria-selected={showMessages} className="results-tab" onClick={() => setPicked({ run: latest.id, tab: 'messages' })}>
            Messages{noticeCount > 0 ? ` (${noticeCount})` : ''}
          </button>
        </div>
        {showMessages ? (
          <div className="results-body" role="tabpanel">
            <MessagesView response={latest.response} error={latest.error} sql={latest.sql} />
          </div>
        ) : current ? (
          <div className="results-body" role="tabpanel">
            <StatementResult key={`${latest.id}-${tab}`} result={current} gridKey={gridKey} fileName={fileName} exportSql={exportSqlOf(latest, current)} />
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
          </span>
        ) : null}
        {latest && !running ? (
          <ResultHistorySelect runs={runs} shownId={latest.id} onShow={(runId) => setFromHistory({ runId, newestAtPick: newest.id })} />
        ) : null}
      </header>
      {body}
    </section>
  )
}
