import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { Spinner } from '../../components/ui/Spinner'
import { useTableCompletions } from '../../data/sql/useTableCompletions'
import { useTheme } from '../../lib/theme'
import { InlineAiEdit } from './ai/InlineAiEdit'
import { registerSqlCompletion } from './completion'
import { createSqlMonaco } from './createSqlMonaco'
import { loadMonaco } from './loadMonaco'
import type { Monaco } from './monaco'
import type { Runnable } from './useSqlRunner'

type Editor = ReturnType<Monaco['editor']['create']>

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
 * Monaco with PostgreSQL highlighting: tab size 2, font size 13 (spec §9), Cmd/Ctrl+Enter runs,
 * Cmd/Ctrl+K edits with AI (given a project).
 */
export function SqlEditor({ initialValue, onChange, onRun, handleRef, marker, readOnly = false, projectRef }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const [editor, setEditor] = useState<{ editor: Editor; monaco: Monaco } | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const { resolved } = useTheme()
  const tables = useTableCompletions(projectRef).data
  const latest = useRef({ onChange, onRun, initialValue, tables })
  useLayoutEffect(() => {
    latest.current = { onChange, onRun, initialValue, tables }
  })

  useEffect(() => {
    let disposed = false
    let created: Editor | undefined
    let completion: { dispose: () => void } | undefined
    loadMonaco().then(
      (monaco) => {
        if (disposed || !host.current) return
        created = createSqlMonaco(monaco, host.current, { value: latest.current.initialValue, ariaLabel: 'SQL editor', readOnly })
        const instance = created
        instance.onDidChangeModelContent(() => latest.current.onChange(instance.getValue()))
        const runnable = (): Runnable => {
          const model = instance.getModel()
          const selection = instance.getSelection()
          if (model && selection && !selection.isEmpty()) {
            return { sql: model.getValueInRange(selection), offset: model.getOffsetAt(selection.getStartPosition()) }
          }
          return { sql: instance.getValue(), offset: 0 }
        }
        // An action, not addCommand: actions only answer in this editor (the AI diff editor has its own Cmd/Ctrl+Enter).
        instance.addAction({
          id: 'stratum.sql.run',
          label: 'Run SQL',
          keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
          run: () => latest.current.onRun(runnable()),
        })
        const model = instance.getModel()
        if (model) completion = registerSqlCompletion(monaco, model, () => latest.current.tables ?? [])
        handleRef.current = { getRunnable: runnable, getValue: () => instance.getValue(), focus: () => instance.focus() }
        setEditor({ editor: instance, monaco })
      },
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    )
    return () => {
      disposed = true
      handleRef.current = null
      completion?.dispose()
      created?.dispose()
    }
    // The editor is created once per mount; the page remounts it per snippet.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    editor?.monaco.editor.setTheme(resolved === 'dark' ? 'vs-dark' : 'vs')
  }, [editor, resolved])

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
