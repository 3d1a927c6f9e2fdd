import { LOG_SOURCES } from '@stratum/contracts'
import { Play } from 'lucide-react'
import { useMemo, useState, type KeyboardEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Select } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { useLogQuery } from '../../data/logs/logQuery'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { modKeyLabel } from '../../lib/platform'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { LogsHistogramCard } from './LogsHistogramCard'
import { LogsQueryError, LogsResults } from './LogsResults'
import { histogramQuery, LOG_TEMPLATES, sourceQuery } from './templates'
import { bucketFor, customWindowProblem, fromLocalInput, presetWindow, TIME_RANGES, toLocalInput, type RangeId, type Window } from './time-range'
import { readLogsUrl, sourceOf, writeLogsUrl, type LogsUrlState } from './url-state'
import './logs.css'

/**
 * /project/{ref}/logs/explorer: log queries over the project's log store (GET .../analytics/endpoints/logs.all),
 * with a source and time range picker, the field's common templates, results in the results grid, a histogram
 * of lines over time and a viewer of one line. The state lives in the URL; the query runs when Run is pressed.
 */
export function LogsExplorerPage() {
  useProjectPageTitle('Logs Explorer')
  const { ref } = useCurrentProject()
  const [params, setParams] = useLatestSearchParams()
  const state = readLogsUrl(params)
  const [text, setText] = useState(state.sql)
  // A preset range ends when the query ran: Run moves it to now.
  const [runAt, setRunAt] = useState(() => Date.now())
  const [selected, setSelected] = useState<Record<string, unknown> | null>(null)

  const window: Window = useMemo(
    () => (state.range === 'custom' ? { start: state.start, end: state.end } : presetWindow(state.range, runAt)),
    [state.range, state.start, state.end, runAt],
  )
  const problem = state.range === 'custom' ? customWindowProblem(state.start, state.end, runAt) : null
  const histogramSource = sourceOf(state.sql) ?? state.source
  const bucket = bucketFor(window)
  const results = useLogQuery(ref, problem ? null : { sql: state.sql, ...window })
  const counts = useLogQuery(ref, problem ? null : { sql: histogramQuery(histogramSource, bucket), ...window })

  const run = (patch: Partial<LogsUrlState> = {}) => {
    const sql = patch.sql ?? text
    const next = { ...patch, sql, source: patch.source ?? sourceOf(sql) ?? state.source }
    const unchanged = next.sql === state.sql && next.source === state.source && !patch.range && !patch.start && !patch.end
    setParams((current) => writeLogsUrl(current, next), { replace: true })
    setSelected(null)
    setRunAt(Date.now())
    // Same query over the same fixed window: ask the store again.
    if (unchanged && state.range === 'custom') {
      void results.refetch()
      void counts.refetch()
    }
  }

  const load = (sql: string, patch: Partial<LogsUrlState> = {}) => {
    setText(sql)
    run({ ...patch, sql })
  }

  const onRange = (range: RangeId) => {
    if (range !== 'custom') return run({ range, start: '', end: '' })
    // A custom window starts as the last hour, to be moved within the last 24 hours.
    const last = presetWindow('1h', Date.now())
    run({ range, start: state.start || last.start, end: state.end || last.end })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault()
      run()
    }
  }

  return (
    <div className="page logs-page">
      <PageHeader title="Logs Explorer" description="Query your project's logs with SQL: the database's log and the API requests through the project URL, over the last 24 hours." />
      <div className="logs-toolbar">
        <label className="logs-control">
          <span>Source</span>
          <Select aria-label="Source" value={state.source} onChange={(e) => load(sourceQuery(e.target.value), { source: e.target.value as LogsUrlState['source'] })}>
            {LOG_SOURCES.map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </Select>
        </label>
        <label className="logs-control">
          <span>Time range</span>
          <Select aria-label="Time range" value={state.range} onChange={(e) => onRange(e.target.value as RangeId)}>
            {TIME_RANGES.map((range) => (
              <option key={range.id} value={range.id}>
                {range.label}
              </option>
            ))}
            <option value="custom">Custom</option>
          </Select>
        </label>
        {state.range === 'custom' ? (
          <>
            <label className="logs-control">
              <span>From</span>
              <input className="input select-compact" type="datetime-local" aria-label="From" value={toLocalInput(state.start)} onChange={(e) => run({ start: fromLocalInput(e.target.value) })} />
            </label>
            <label className="logs-control">
              <span>To</span>
              <input className="input select-compact" type="datetime-local" aria-label="To" value={toLocalInput(state.end)} onChange={(e) => run({ end: fromLocalInput(e.target.value) })} />
            </label>
          </>
        ) : null}
        <label className="logs-control">
          <span>Templates</span>
          <Select
            aria-label="Templates"
            value=""
            onChange={(e) => {
              const template = LOG_TEMPLATES.find((t) => t.id === e.target.value)
              if (template) load(template.sql, { source: template.source })
            }}
          >
            <option value="" disabled>
              Choose a template…
            </option>
            {LOG_TEMPLATES.map((template) => (
              <option key={template.id} value={template.id} title={template.description}>
                {template.label}
              </option>
            ))}
          </Select>
        </label>
      </div>
      {problem ? (
        <p className="logs-window-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="logs-editor">
        <textarea
          className="logs-sql"
          aria-label="Log query"
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          rows={Math.min(12, Math.max(5, text.split('\n').length + 1))}
        />
        <div className="logs-editor-footer">
          <span className="muted">
            BigQuery-style SQL over one source; {modKeyLabel}+Enter runs it.
          </span>
          <Button variant="primary" icon={<Play size={14} aria-hidden="true" />} onClick={() => run()} disabled={Boolean(problem) || !text.trim()} loading={results.isFetching}>
            Run
          </Button>
        </div>
      </div>
      <LogsQueryError query={results} />
      <LogsHistogramCard query={counts} window={window} bucket={bucket} source={histogramSource} runFailed={Boolean(results.error || results.data?.error)} />
      <LogsResults
        projectRef={ref}
        query={results}
        window={window}
        selected={selected}
        onSelect={setSelected}
      />
    </div>
  )
}
