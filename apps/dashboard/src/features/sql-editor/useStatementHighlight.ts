import { splitStatementsByLexer } from '@stratum/sql'
import { useEffect } from 'react'
import { pickStatement } from './statementAt'
import type { Monaco } from './monaco'
import type { SqlMonacoEditor } from './useSqlMonaco'

/** Quiet time after typing or a cursor move before the text is split again: typing never waits for the split. */
const SETTLE_MS = 120

/**
 * Marks the statement under the cursor, the one Cmd/Ctrl+Shift+Enter runs, with a bar in the gutter and a
 * faint background. Only when the text holds more than one statement and nothing is selected: with one
 * statement, or a selection, every way of running picks the same text and the mark would say nothing.
 */
export function useStatementHighlight(editor: { editor: SqlMonacoEditor; monaco: Monaco } | null) {
  useEffect(() => {
    if (!editor) return
    const { editor: instance, monaco } = editor
    const decorations = instance.createDecorationsCollection()
    let timer: ReturnType<typeof setTimeout> | undefined
    const update = () => {
      const model = instance.getModel()
      const position = instance.getPosition()
      const selection = instance.getSelection()
      if (!model || !position || (selection && !selection.isEmpty())) return decorations.clear()
      const statements = splitStatementsByLexer(model.getValue())
      const statement = statements.length > 1 ? pickStatement(statements, model.getOffsetAt(position)) : null
      if (!statement) return decorations.clear()
      const start = model.getPositionAt(statement.start)
      const end = model.getPositionAt(statement.end)
      decorations.set([
        {
          range: new monaco.Range(start.lineNumber, 1, end.lineNumber, 1),
          options: {
            isWholeLine: true,
            className: 'sql-current-statement',
            linesDecorationsClassName: 'sql-current-statement-bar',
          },
        },
      ])
    }
    const schedule = () => {
      clearTimeout(timer)
      timer = setTimeout(update, SETTLE_MS)
    }
    schedule()
    const listeners = [instance.onDidChangeCursorSelection(schedule), instance.onDidChangeModelContent(schedule)]
    return () => {
      clearTimeout(timer)
      listeners.forEach((listener) => listener.dispose())
      decorations.clear()
    }
  }, [editor])
}
