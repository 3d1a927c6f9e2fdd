import { useRef } from 'react'
import { Spinner } from '../../components/ui/Spinner'
import { useSqlMonaco } from '../sql-editor'

interface FunctionBodyEditorProps {
  projectRef: string
  initialValue: string
  onChange: (body: string) => void
  readOnly: boolean
}

/**
 * A function's body in the SQL editor's Monaco (highlighting, completion of the project's objects). Monaco is its own
 * chunk, loaded when this mounts: the listing itself never pays for it.
 */
export function FunctionBodyEditor({ projectRef, initialValue, onChange, readOnly }: FunctionBodyEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const { editor, failed } = useSqlMonaco(host, {
    initialValue,
    onChange,
    projectRef,
    options: { ariaLabel: 'Function definition', lineNumbersMinChars: 3, readOnly },
  })
  return (
    <div className="dbo-body-editor" data-testid="function-definition">
      <div ref={host} className="dbo-body-monaco" />
      {!editor && !failed ? (
        <div className="dbo-body-message">
          <Spinner size={16} /> Loading editor…
        </div>
      ) : null}
      {failed ? <div className="dbo-body-message">The editor could not load: {failed}</div> : null}
    </div>
  )
}
