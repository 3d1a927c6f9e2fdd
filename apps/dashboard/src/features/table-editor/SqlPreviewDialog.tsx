import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { useToast } from '../../components/ui/Toast'
import { useRunTableSql } from '../../data/table-editor/useRunTableSql'
import { SqlErrorAlert } from './SqlErrorAlert'
// Its own look wherever it opens (the Database pages too), not only beside the table editor.
import './table-editor-forms.css'

export interface PendingSql {
  title: string
  sql: string
  /** The toast once it ran. */
  done: string
  destructive?: boolean
  onDone?: () => void
}

/** Every change to a table's structure or security shows the SQL it will run; nothing runs until Run is pressed. */
export function SqlPreviewDialog({ projectRef, pending, onClose }: { projectRef: string; pending: PendingSql | undefined; onClose: () => void }) {
  const toast = useToast()
  const run = useRunTableSql(projectRef)
  const close = () => {
    run.reset()
    onClose()
  }
  return (
    <Dialog
      open={pending !== undefined}
      onOpenChange={(open) => !open && close()}
      title={pending?.title ?? ''}
      description="This SQL runs on the project database with the full connection:"
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button
            variant={pending?.destructive ? 'danger' : 'primary'}
            loading={run.isPending}
            onClick={() =>
              pending &&
              run.mutate(pending.sql, {
                onSuccess: () => {
                  toast.success(pending.done)
                  pending.onDone?.()
                  close()
                },
              })
            }
          >
            Run SQL
          </Button>
        </>
      }
    >
      <pre className="te-sql-preview" aria-label="SQL to run">
        {pending?.sql}
      </pre>
      {run.error ? <SqlErrorAlert error={run.error} title="The SQL failed" /> : null}
    </Dialog>
  )
}
