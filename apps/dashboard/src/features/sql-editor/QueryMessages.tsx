import type { SqlQueryResponse } from '@stratum/contracts'
import { errorLocationLines } from '@stratum/sql'
import type { RunRecord } from './results'
import './query-messages.css'

type RunError = NonNullable<RunRecord['error']>

/** psql's lines of an error: ERROR (the spec's 'ERROR: {message}'), DETAIL, HINT and the LINE with a caret under the position. */
export function errorLines(error: RunError, sql: string): string[] {
  const lines = [`ERROR: ${error.message}`]
  if (error.detail) lines.push(`DETAIL: ${error.detail}`)
  if (error.hint) lines.push(`HINT: ${error.hint}`)
  const location = errorLocationLines(sql, error.position)
  if (location) lines.push(...location)
  return lines
}

export function QueryErrorView({ error, sql }: { error: RunError; sql: string }) {
  return (
    <pre className="results-error" role="alert">
      {errorLines(error, sql).join('\n')}
    </pre>
  )
}

/**
 * The Messages tab: what Postgres said during the run (NOTICE, WARNING, INFO with their DETAIL and
 * HINT), the platform's warnings (a transaction left open), each statement's command tag, and the error.
 */
export function MessagesView({ response, error, sql }: { response: SqlQueryResponse | undefined; error: RunError | undefined; sql: string }) {
  const warnings = response?.warnings ?? []
  const notices = response?.notices ?? []
  const results = response?.results ?? []
  return (
    <div className="query-messages" aria-label="Messages">
      {warnings.map((warning) => (
        <p key={warning} className="query-message query-message-warning">
          WARNING: {warning}
        </p>
      ))}
      {notices.map((notice, index) => (
        <div key={index} className={`query-message query-message-${notice.severity === 'WARNING' ? 'warning' : 'notice'}`}>
          <p>
            {notice.severity}: {notice.message}
          </p>
          {notice.detail ? <p>DETAIL: {notice.detail}</p> : null}
          {notice.hint ? <p>HINT: {notice.hint}</p> : null}
        </div>
      ))}
      {results.map((result, index) => (
        <p key={`tag-${index}`} className="query-message query-message-tag">
          {result.command_tag ?? result.command ?? 'Statement'}
        </p>
      ))}
      {error ? <pre className="query-message query-message-error">{errorLines(error, sql).join('\n')}</pre> : null}
      {warnings.length + notices.length + results.length === 0 && !error ? <p className="query-message">No messages</p> : null}
    </div>
  )
}
