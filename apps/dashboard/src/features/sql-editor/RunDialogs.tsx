import type { DestructiveOperation, QueryWarning } from '@stratum/sql'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { describeDestructive } from './destructiveText'
import './run-dialogs.css'

interface RunWarningDialogProps {
  warning: QueryWarning | null
  /** The destructive statements of the query: they get their own, stronger warning. */
  destructive?: readonly DestructiveOperation[]
  onRun: () => void
  onCancel: () => void
}

/**
 * The warning gate (the SQL editor spec's run states): Run or Cancel before writes or function calls, with the spec's
 * texts. A query with destructive statements (the spec's destructive rule) is named statement by statement, with
 * its table, in a danger alert; Cancel has the focus there, so Enter does not run it.
 */
export function RunWarningDialog({ warning, destructive = [], onRun, onCancel }: RunWarningDialogProps) {
  const dangerous = destructive.length > 0
  return (
    <Dialog
      open={warning !== null}
      onOpenChange={(open) => !open && onCancel()}
      size={dangerous ? 'md' : 'sm'}
      title={dangerous ? 'This query permanently removes or changes data' : 'Potential issue detected with your query'}
      description={warning ? `${warning.message} ${warning.question}` : undefined}
      footer={
        <>
          <Button onClick={onCancel} autoFocus={dangerous}>
            Cancel
          </Button>
          <Button variant={dangerous ? 'danger' : 'primary'} onClick={onRun} autoFocus={!dangerous}>
            Run
          </Button>
        </>
      }
    >
      {dangerous ? (
        <Alert tone="danger" title="Destructive statements">
          <ul className="gate-destructive" data-testid="destructive-operations">
            {destructive.map((operation, index) => {
              const line = describeDestructive(operation)
              return (
                <li key={index} data-kind={operation.kind}>
                  <strong>{line.statement}</strong> on <code>{line.target}</code>: {line.effect}.
                </li>
              )
            })}
          </ul>
          <p className="gate-irreversible">This cannot be undone. Make sure you have a backup of the data you need.</p>
        </Alert>
      ) : warning?.unknownFunctions.length ? (
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
