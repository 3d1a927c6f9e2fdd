import type { QueryWarning } from '@stratum/sql'
import { Button } from '../../components/ui/Button'

/**
 * The warning gate inside a widget (the SQL editor spec's run states): a report runs its widgets on open, so a
 * write or a function call waits here for Run or Cancel instead of running unasked.
 */
export function WidgetWarningGate({ warning, onRun, onCancel }: { warning: QueryWarning; onRun: () => void; onCancel: () => void }) {
  return (
    <div className="qw-gate" role="alertdialog" aria-label="Potential issue detected with your query">
      <p>
        {warning.message} {warning.question}
      </p>
      <div className="qw-gate-actions">
        <Button size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" onClick={onRun}>
          Run
        </Button>
      </div>
    </div>
  )
}

/** The read-only connection refused the query (the SQL editor spec's read-only-first rule): offer the full connection to those allowed it. */
export function WidgetWriteEscalation({ message, onConfirm, onCancel }: { message: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div className="qw-gate" role="alertdialog" aria-label="Run this query with write access?">
      <pre className="qw-error">ERROR: {message}</pre>
      <p>The query ran on the read-only connection, which refused it. Running it on the full connection lets it change your database.</p>
      <div className="qw-gate-actions">
        <Button size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" onClick={onConfirm}>
          Run with write access
        </Button>
      </div>
    </div>
  )
}
