import { Alert } from '../../components/ui/Alert'
import { errorMessage } from '../../data/api'
import { EditorSqlError } from '../../data/table-editor/runEditorSql'

/** A failed write with Postgres's message, and its DETAIL and HINT when it gave them. */
export function SqlErrorAlert({ error, title }: { error: unknown; title: string }) {
  return (
    <Alert tone="danger" title={title}>
      <span className="te-error-message">{errorMessage(error)}</span>
      {error instanceof EditorSqlError && error.detail ? <span className="te-error-extra">DETAIL: {error.detail}</span> : null}
      {error instanceof EditorSqlError && error.hint ? <span className="te-error-extra">HINT: {error.hint}</span> : null}
    </Alert>
  )
}
