import { useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { Spinner } from '../../components/ui/Spinner'
import { InlineAiEdit } from './ai/InlineAiEdit'
import { useSqlMonaco } from './useSqlMonaco'
import type { Runnable } from './useSqlRunner'

export interface EditorHandle {
  /** The selection if one is made, else the whole text. */
  getRunnable: () => Runnable
  /** The whole text. */
  getValue: () => string
  focus: () => void
}

export interface ErrorMarker {
  /** 0-based offset in the editor's text. */
  offset: number
  message: string
}

interface SqlEditorProps {
  initialValue: string
  onChange: (sql: string) => void
  onRun: (runnable: Runnable) => void
  handleRef: { current: EditorHandle | null }
  marker: ErrorMarker | null
  readOnly?: boolean
  /** The project whose schemas, tables and columns are offered as completions. */
  projectRef?: string
}

/**
 * Monaco with PostgreSQL highlighting: tab size 2, font size 13 (the SQL editor spec's editor settings), Cmd/Ctrl+Enter runs,
 * Cmd/Ctrl+K edits with AI (given a project).
 */
export function SqlEditor({ initialValue, onChange, onRun, handleRef, marker, readOnly = false, projectRef }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const run = useRef(onRun)
  useLayoutEffect(() => {
    run.current = onRun
  })
  const { editor: instance, monaco, failed } = useSqlMonaco(host, {
    initialValue,
    onChange,
    projectRef,
    options: { ariaLabel: 'SQL editor', readOnly },
    setup: (created, loaded) => {
      const runnable = (): Runnable => {
        const model = created.getModel()
        const selection = created.getSelection()
        if (model && selection && !selection.isEmpty()) {
          return { sql: model.getValueInRange(selection), offset: model.getOffsetAt(selection.getStartPosition()) }
        }
        return { sql: created.getValue(), offset: 0 }
      }
      // An action, not addCommand: actions only answer in this editor (the AI diff editor has its own Cmd/Ctrl+Enter).
      created.addAction({
        id: 'stratum.sql.run',
        label: 'Run SQL',
        keybindings: [loaded.KeyMod.CtrlCmd | loaded.KeyCode.Enter],
        run: () => run.current(runnable()),
      })
      handleRef.current = { getRunnable: runnable, getValue: () => created.getValue(), focus: () => created.focus() }
      return () => {
        handleRef.current = null
      }
    },
  })
  const editor = useMemo(() => (instance && monaco ? { editor: instance, monaco } : null), [instance, monaco])

  useEffect(() => {
    editor?.editor.updateOptions({ readOnly })
  }, [editor, readOnly])

  // The error position, marked in the text (and cleared by the next run or edit).
  useEffect(() => {
    if (!editor) return
    const model = editor.editor.getModel()
    if (!model) return
    if (!marker) {
      editor.monaco.editor.setModelMarkers(model, 'sql-run', [])
      return
    }
    const start = model.getPositionAt(marker.offset)
    const word = model.getWordAtPosition(start)
    const endColumn = word && word.startColumn <= start.column ? word.endColumn : start.column + 1
    editor.monaco.editor.setModelMarkers(model, 'sql-run', [
      {
        severity: editor.monaco.MarkerSeverity.Error,
        message: marker.message,
        startLineNumber: start.lineNumber,
        startColumn: word ? word.startColumn : start.column,
        endLineNumber: start.lineNumber,
        endColumn,
      },
    ])
    editor.editor.revealPositionInCenterIfOutsideViewport(start)
    const clear = editor.editor.onDidChangeModelContent(() => editor.monaco.editor.setModelMarkers(model, 'sql-run', []))
    return () => clear.dispose()
  }, [editor, marker])

  return (
    <div className="sql-editor-host" data-testid="sql-editor">
      <div ref={host} className="sql-editor-monaco" />
      {!editor && !failed ? (
        <div className="sql-editor-loading">
          <Spinner size={16} /> Loading editor…
        </div>
      ) : null}
      {failed ? <div className="sql-editor-loading">The editor could not load: {failed}</div> : null}
      {editor && projectRef ? <InlineAiEdit editor={editor.editor} monaco={editor.monaco} projectRef={projectRef} /> : null}
    </div>
  )
}
