import type { ContentItem, SqlStatementResult } from '@stratum/contracts'
import { getQueryWarning, parseParameters, substituteParameters, type QueryWarning } from '@stratum/sql'
import { Code2, Eye, EyeOff, Play } from 'lucide-react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router'
import { Button, IconButton } from '../../components/ui/Button'
import { Tooltip } from '../../components/ui/Tooltip'
import { Spinner } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { runBackgroundQuery } from '../../data/sql/backgroundQueries'
import { ResultsGrid } from '../results-grid'
import { CHART_TEXTS, initialChartConfig, type ChartConfig } from './chart'
import { ParameterPopover } from './ParameterPopover'
import { ResultChart } from './lazy'
import { ViewSwitch } from './ViewSwitch'
import { WidgetWarningGate, WidgetWriteEscalation } from './WidgetRunGate'
import './query-widget.css'

interface QueryResultWidgetProps {
  projectRef: string
  snippet: Pick<ContentItem, 'id' | 'name' | 'content'>
  /** Settings of this widget (a report keeps its own per widget): over the snippet's own chart settings. */
  chart?: ChartConfig
  /** Called when the view or chart settings change (e.g. to save them); local only when missing. */
  onChartChange?: (chart: ChartConfig) => void
  /** Runs once on mount (a report's widgets). */
  autoRun?: boolean
  actions?: React.ReactNode
  /** Opens the SQL in the editor when the snippet is not saved (the assistant's query blocks); else a link to /sql/{id}. */
  onEditInEditor?: () => void
}

type Outcome =
  | { kind: 'ok'; result: SqlStatementResult | undefined }
  | { kind: 'error'; message: string }
  | { kind: 'confirm'; warning: QueryWarning }
  | { kind: 'escalate'; message: string }

interface RunOptions {
  /** The user already answered the warning gate for this run. */
  confirmed?: boolean
  /** Run on the full connection (after the read-only one refused and the user agreed). */
  fullConnection?: boolean
}

/** A saved snippet's result as a table or a chart (bar, line or area), with its parameters (the SQL editor spec's result views). */
export function QueryResultWidget({ projectRef, snippet, chart: widgetChart, onChartChange, autoRun = false, actions, onEditInEditor }: QueryResultWidgetProps) {
  const sql = snippet.content.sql
  const parameters = useMemo(() => parseParameters(sql), [sql])
  const [values, setValues] = useState<Record<string, string>>({})
  const [showSql, setShowSql] = useState(false)
  const [chart, setChart] = useState<ChartConfig>(() => initialChartConfig(snippet.content.chart, widgetChart))
  const [running, setRunning] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // Once the user said Run to this SQL, other parameter values don't ask again: they are quoted
  // as literals, so they cannot change what the statement does.
  const confirmedSql = useRef<string | null>(null)

  const updateChart = (next: ChartConfig) => {
    setChart(next)
    onChartChange?.(next)
  }

  const run = useCallback(async ({ confirmed = false, fullConnection = false }: RunOptions = {}) => {
    setRunning(true)
    try {
      const query = substituteParameters(sql, values)
      if (confirmed) confirmedSql.current = sql
      const warning = confirmedSql.current === sql ? null : getQueryWarning(query)
      if (warning) {
        setOutcome({ kind: 'confirm', warning })
        return
      }
      // Queued: a report's widgets all run on load, and the server takes two queries of a member at once.
      const answer = await runBackgroundQuery({ ref: projectRef, query, readOnly: !fullConnection })
      if (answer.kind === 'ok') {
        const results = answer.response.results
        setOutcome({ kind: 'ok', result: results[results.length - 1] })
      } else if (answer.kind === 'write-required' && answer.canRunWithFullConnection) setOutcome({ kind: 'escalate', message: answer.message })
      else setOutcome({ kind: 'error', message: answer.message })
    } catch (error) {
      setOutcome({ kind: 'error', message: errorMessage(error) })
    } finally {
      setRunning(false)
    }
  }, [projectRef, sql, values])

  useEffect(() => {
    if (!autoRun) return
    const timer = window.setTimeout(() => void run(), 0)
    return () => window.clearTimeout(timer)
    // Only on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const view = chart.view ?? 'table'
  let body
  if (running) body = <p className="qw-message" role="status"><Spinner size={14} /> Running…</p>
  else if (!outcome) body = <p className="qw-message">Run the query to see its results.</p>
  else if (outcome.kind === 'error') body = <pre className="qw-error" role="alert">ERROR: {outcome.message}</pre>
  else if (outcome.kind === 'confirm')
    body = <WidgetWarningGate warning={outcome.warning} onRun={() => void run({ confirmed: true })} onCancel={() => setOutcome(null)} />
  else if (outcome.kind === 'escalate')
    body = <WidgetWriteEscalation message={outcome.message} onConfirm={() => void run({ confirmed: true, fullConnection: true })} onCancel={() => setOutcome(null)} />
  else {
    const result = outcome.result
    const columns = result?.columns.map((column) => column.name) ?? []
    const rows = result?.rows ?? []
    if (view === 'chart') body = <ResultChart columns={columns} rows={rows} config={chart} onChange={updateChart} />
    else if (rows.length === 0) body = <p className="qw-message">{CHART_TEXTS.noResults}</p>
    else
      body = (
        <div className="qw-grid">
          <ResultsGrid columns={columns} rows={rows} stateKey={`widget.${projectRef}.${snippet.id}`} fileName={snippet.name || 'results'} showHint={false} />
        </div>
      )
  }

  return (
    <section className="qw" aria-label={snippet.name} data-testid="query-result-widget">
      <header className="qw-header">
        <h3 className="qw-title" title={snippet.name}>
          {snippet.name}
        </h3>
        <div className="qw-actions">
          {/* Icons with their names as tooltips: the header stays one row in a report's narrowest column. */}
          <IconButton
            size="sm"
            label={showSql ? 'Hide query' : 'Show query'}
            icon={showSql ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
            aria-pressed={showSql}
            onClick={() => setShowSql(!showSql)}
          />
          <ParameterPopover parameters={parameters} values={values} onChange={setValues} onRun={() => void run()} />
          <ViewSwitch view={view} onChange={(next) => updateChart({ ...chart, view: next })} />
          {onEditInEditor ? (
            <IconButton size="sm" label="Edit in SQL editor" icon={<Code2 size={14} aria-hidden="true" />} onClick={onEditInEditor} />
          ) : (
            <Tooltip content="Edit in SQL editor" describe={false}>
              <Link className="btn btn-ghost btn-sm btn-icon" to={`/project/${projectRef}/sql/${snippet.id}`}>
                <Code2 size={14} aria-hidden="true" />
                <span className="visually-hidden">Edit in SQL editor</span>
              </Link>
            </Tooltip>
          )}
          <Button size="sm" variant="primary" icon={<Play size={14} aria-hidden="true" />} loading={running} onClick={() => void run()}>
            Run
          </Button>
          {actions}
        </div>
      </header>
      {showSql ? <pre className="qw-sql">{sql}</pre> : null}
      <div className="qw-body">{body}</div>
    </section>
  )
}
