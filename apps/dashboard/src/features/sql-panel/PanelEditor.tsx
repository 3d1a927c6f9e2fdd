import { useEffect, useLayoutEffect, useRef } from 'react'
import { Spinner } from '../../components/ui/Spinner'
import { isModShortcut } from '../../lib/platform'
import { useSqlMonaco } from '../sql-editor'

export interface PanelEditorHandle {
  /** The selection if one is made, else the whole text. */
  getRunnable: () => string
  /** Replaces the whole text as one edit, so Ctrl+Z brings the old text back. */
  replaceAll: (sql: string) => void
  focus: () => void
}

interface PanelEditorProps {
  projectRef: string
  initialValue: string
  onChange: (sql: string) => void
  onRun: (sql: string) => void
  handleRef: { current: PanelEditorHandle | null }
}

/** Cmd/Ctrl+Enter: the modifier alone (Cmd on macOS, Ctrl elsewhere), as Monaco's CtrlCmd. */
const isRunShortcut = (event: KeyboardEvent) => isModShortcut(event, 'enter')

/**
 * The panel's Monaco editor: PostgreSQL highlighting and completion, tab size 2, font size 13
 * (the API docs and assistant spec's editor settings), loaded lazily like the SQL editor's. The keys it handles itself are caught on the way
 * down (capture phase) rather than bound with Monaco's addCommand: those bindings are global to
 * every editor on the page, and the SQL editor page's own editor would otherwise answer for this one
 * (or this one for it). Cmd/Ctrl+E and +I, which Monaco would take, go on to the shell's panel toggles.
 */
export function PanelEditor({ projectRef, initialValue, onChange, onRun, handleRef }: PanelEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const latest = useRef({ onRun })
  useLayoutEffect(() => {
    latest.current = { onRun }
  })
  const { editor, failed } = useSqlMonaco(host, {
    initialValue,
    onChange,
    projectRef,
    options: { lineNumbersMinChars: 3, folding: false, ariaLabel: 'SQL editor panel' },
    setup: (instance) => {
      handleRef.current = {
        getRunnable: () => {
          const selection = instance.getSelection()
          const current = instance.getModel()
          return current && selection && !selection.isEmpty() ? current.getValueInRange(selection) : instance.getValue()
        },
        replaceAll: (sql) => {
          const current = instance.getModel()
          if (!current) return
          instance.pushUndoStop()
          instance.executeEdits('sql-panel-template', [{ range: current.getFullModelRange(), text: sql }])
          instance.pushUndoStop()
          instance.setPosition({ lineNumber: 1, column: 1 })
          instance.revealLine(1)
        },
        focus: () => instance.focus(),
      }
      return () => {
        handleRef.current = null
      }
    },
  })

  useEffect(() => {
    const node = host.current
    if (!node || !editor) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (isRunShortcut(event)) {
        event.preventDefault()
        event.stopPropagation()
        if (!event.repeat) latest.current.onRun(handleRef.current?.getRunnable() ?? '')
      } else if (isModShortcut(event, 'e') || isModShortcut(event, 'i')) {
        // Keep Monaco from acting on them (Cmd+E finds, Ctrl+I suggests): the shell listens on window.
        event.preventDefault()
        event.stopPropagation()
        window.dispatchEvent(new KeyboardEvent('keydown', event))
      }
    }
    node.addEventListener('keydown', onKeyDown, true)
    return () => node.removeEventListener('keydown', onKeyDown, true)
  }, [editor, handleRef])

  return (
    <div className="sql-panel-editor" data-testid="sql-panel-editor">
      <div ref={host} className="sql-panel-monaco" />
      {!editor && !failed ? (
        <div className="sql-panel-editor-message">
          <Spinner size={16} /> Loading editor…
        </div>
      ) : null}
      {failed ? <div className="sql-panel-editor-message">The editor could not load: {failed}</div> : null}
    </div>
  )
}
