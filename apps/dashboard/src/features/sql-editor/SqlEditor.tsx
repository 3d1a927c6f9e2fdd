import { useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { Spinner } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { InlineAiEdit } from './ai/InlineAiEdit'
import { formatSql } from './format'
import { statementRunnable } from './statementAt'
import { useSqlMonaco } from './useSqlMonaco'
import { INLINE_AI_EDIT_ACTION } from './ai/useInlineAiEdit'
import { useStatementHighlight } from './useStatementHighlight'
import type { Runnable } from './useSqlRunner'

export interface EditorHandle {
  /** The selection if one is made, else the whole text. */
  getRunnable: () => Runnable
  /** The statement under the cursor (null when the text holds none). */
  getStatementRunnable: () => Runnable | null
  /** The whole text. */
  getValue: () => string
  focus: () => void
  /** Types `text` over the selection (a name from the schema browser), as one undoable edit. */
  insert: (text: string) => void
  /** Formats the selection, or the whole text, as one undoable edit. */
  format: () => Promise<void>
  /** Opens the inline AI edit's prompt (Cmd/Ctrl+K) at the cursor or the selection. */
  editWithAi: () => void
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
 * Monaco with PostgreSQL highlighting: tab size 2, font size 13 (the SQL editor spec's editor settings), Cmd/Ctrl+Enter runs
 * the selection or all, Cmd/Ctrl+Shift+Enter the statement under the cursor, Shift+Alt+F formats, Cmd/Ctrl+K edits with AI
 * (given a project); find/replace, comment toggle, multi-cursor and the command palette (F1) are Monaco's own.
 */
export function SqlEditor({ initialValue, onChange, onRun, handleRef, marker, readOnly = false, projectRef }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const toast = useToast()
  const run = useRef(onRun)
  const notify = useRef(toast)
  useLayoutEffect(() => {
    run.current = onRun
    notify.current = toast
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
      const statement = (): Runnable | null => {
        const model = created.getModel()
        const position = created.getPosition()
        return model && position ? statementRunnable(model.getValue(), model.getOffsetAt(position)) : null
      }
      const format = async () => {
        const model = created.getModel()
        if (!model || created.getOption(loaded.editor.EditorOption.readOnly)) return
        const selection = created.getSelection()
        const range = selection && !selection.isEmpty() ? selection : model.getFullModelRange()
        const version = model.getAlternativeVersionId()
        let formatted: string
        try {
          formatted = await formatSql(model.getValueInRange(range))
        } catch (error) {
          notify.current.error(`Failed to format SQL: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
          return
        }
        // Typed into meanwhile (the formatter loads on first use): the result would overwrite it.
        if (model.isDisposed() || model.getAlternativeVersionId() !== version || formatted === model.getValueInRange(range)) return
        // Stops on both sides: one Ctrl+Z takes the whole formatting back, and nothing typed before.
        created.pushUndoStop()
        created.executeEdits('format', [{ range, text: formatted, forceMoveMarkers: true }])
        created.pushUndoStop()
      }
      const insert = (text: string) => {
        const selection = created.getSelection()
        if (!selection || created.getOption(loaded.editor.EditorOption.readOnly)) return
        created.pushUndoStop()
        created.executeEdits('schema-browser', [{ range: selection, text, forceMoveMarkers: true }])
        created.pushUndoStop()
        created.focus()
      }
      // Actions, not addCommand: actions only answer in this editor (the AI diff editor has its own Cmd/Ctrl+Enter), and
      // they are listed in the command palette (F1) and the right-click menu.
      created.addAction({
        id: 'stratum.sql.run',
        label: 'Run SQL (selection or all)',
        keybindings: [loaded.KeyMod.CtrlCmd | loaded.KeyCode.Enter],
        contextMenuGroupId: 'navigation',
        contextMenuOrder: 1,
        run: () => run.current(runnable()),
      })
      created.addAction({
        id: 'stratum.sql.run-statement',
        label: 'Run statement at cursor',
        keybindings: [loaded.KeyMod.CtrlCmd | loaded.KeyMod.Shift | loaded.KeyCode.Enter],
        contextMenuGroupId: 'navigation',
        contextMenuOrder: 2,
        run: () => {
          const current = statement()
          if (current) run.current(current)
        },
      })
      created.addAction({
        id: 'stratum.sql.format',
        label: 'Format SQL',
        keybindings: [loaded.KeyMod.Shift | loaded.KeyMod.Alt | loaded.KeyCode.KeyF],
        precondition: '!editorReadonly',
        contextMenuGroupId: 'navigation',
        contextMenuOrder: 3,
        run: () => format(),
      })
      handleRef.current = {
        getRunnable: runnable,
        getStatementRunnable: statement,
        getValue: () => created.getValue(),
        focus: () => created.focus(),
        insert,
        format,
        editWithAi: () => {
          created.focus()
          void created.getAction(INLINE_AI_EDIT_ACTION)?.run()
        },
      }
      return () => {
        handleRef.current = null
      }
    },
  })
  const editor = useMemo(() => (instance && monaco ? { editor: instance, monaco } : null), [instance, monaco])
  useStatementHighlight(editor)

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
