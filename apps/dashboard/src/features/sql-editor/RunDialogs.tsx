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

const WRITE_ACCESS_TITLE = 'Run this query with write access?'
const WRITE_ACCESS_TEXT = 'The query ran on the read-only connection, which refused it. Running it on the full connection lets it change your database.'

const gateTitle = (dangerous: boolean) => (dangerous ? 'This query permanently removes or changes data' : 'Potential issue detected with your query')

/** What the gate names: the destructive statements with their tables, else the functions called or the write keywords. */
function GateDetails({ warning, destructive }: { warning: QueryWarning | null; destructive: readonly DestructiveOperation[] }) {
  if (destructive.length > 0) {
    return (
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
    )
  }
  if (warning?.unknownFunctions.length) {
    return (
      <p className="gate-detail">
        Functions called: <code>{warning.unknownFunctions.join(', ')}</code>
      </p>
    )
  }
  if (warning?.writeKeywords.length) {
    return (
      <p className="gate-detail">
        Write operations: <code>{warning.writeKeywords.join(', ')}</code>
      </p>
    )
  }
  return null
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
      title={gateTitle(dangerous)}
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
      <GateDetails warning={warning} destructive={destructive} />
    </Dialog>
  )
}

/**
 * The same gate as a state of a small panel (the SQL side panel's warning-confirm state): shown in place, not as a
 * page-wide modal over the page the panel sits beside.
 */
export function RunWarningGate({ warning, destructive = [], onRun, onCancel }: RunWarningDialogProps & { warning: QueryWarning }) {
  const dangerous = destructive.length > 0
  const title = gateTitle(dangerous)
  return (
    <div className="gate-inline" role="alertdialog" aria-label={title} aria-describedby="gate-inline-question">
      <p className="gate-inline-title">{title}</p>
      <p id="gate-inline-question" className="gate-inline-question">
        {warning.message} {warning.question}
      </p>
      <GateDetails warning={warning} destructive={destructive} />
      <div className="gate-inline-actions">
        <Button size="sm" onClick={onCancel} autoFocus={dangerous}>
          Cancel
        </Button>
        <Button size="sm" variant={dangerous ? 'danger' : 'primary'} onClick={onRun} autoFocus={!dangerous}>
          Run
        </Button>
      </div>
    </div>
  )
}

/** The write-access question of a small panel, in place (see RunWarningGate). */
export function WriteConnectionGate({ message, onConfirm, onCancel }: { message: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div className="gate-inline" role="alertdialog" aria-label={WRITE_ACCESS_TITLE}>
      <p className="gate-inline-title">{WRITE_ACCESS_TITLE}</p>
      <p className="gate-inline-question">{WRITE_ACCESS_TEXT}</p>
      <pre className="gate-error">ERROR: {message}</pre>
      <div className="gate-inline-actions">
        <Button size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" onClick={onConfirm} autoFocus>
          Run with write access
        </Button>
      </div>
    </div>
  )
}

/** The read-only connection refused the query (the SQL editor spec's read-only-first rule): confirm running it with the full connection. */
export function WriteConnectionDialog({ message, onConfirm, onCancel }: { message: string | null; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Dialog
      open={message !== null}
      onOpenChange={(open) => !open && onCancel()}
      size="sm"
      title={WRITE_ACCESS_TITLE}
      description={WRITE_ACCESS_TEXT}
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
