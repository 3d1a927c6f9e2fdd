import type { QueryWarning } from '@stratum/sql'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import './run-dialogs.css'

/** The warning gate (the SQL editor spec's run states): Run or Cancel before writes or function calls. */
export function RunWarningDialog({ warning, onRun, onCancel }: { warning: QueryWarning | null; onRun: () => void; onCancel: () => void }) {
  return (
    <Dialog
      open={warning !== null}
      onOpenChange={(open) => !open && onCancel()}
      size="sm"
      title="Potential issue detected with your query"
      description={warning ? `${warning.message} ${warning.question}` : undefined}
      footer={
        <>
          <Button onClick={onCancel}>Cancel</Button>
          <Button variant="primary" onClick={onRun} autoFocus>
            Run
          </Button>
        </>
      }
    >
      {warning?.unknownFunctions.length ? (
        <p className="gate-detail">
          Functions called: <code>{warning.unknownFunctions.join(', ')}</code>
        </p>
      ) : warning?.writeKeywords.length ? (
        <p className="gate-detail">
          Write operations: <code>{warning.writeKeywords.join(', ')}</code>
        </p>
      ) : null}
    </Dialog>
  )
}

/** The read-only connection refused the query (the SQL editor spec's read-only-first rule): confirm running it with the full connection. */
export function WriteConnectionDialog({ message, onConfirm, onCancel }: { message: string | null; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Dialog
      open={message !== null}
      onOpenChange={(open) => !open && onCancel()}
      size="sm"
      title="Run this query with write access?"
      description="The query ran on the read-only connection, which refused it. Running it on the full connection lets it change your database."
      footer={
        <>
          <Button onClick={onCancel}>Cancel</Button>
          <Button variant="primary" onClick={onConfirm} autoFocus>
            Run with write access
          </Button>
        </>
      }
    >
      <pre className="gate-error">ERROR: {message}</pre>
    </Dialog>
  )
}
