import { Check, Sparkles, X } from 'lucide-react'
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react'
import { Button } from '../../../components/ui/Button'
import { Spinner } from '../../../components/ui/Spinner'
import { modKeyLabel } from '../../../lib/platform'
import type { Monaco } from '../monaco'
import { minimalEdit } from './applyCompletion'

type DiffEditor = ReturnType<Monaco['editor']['createDiffEditor']>

interface AiDiffViewProps {
  monaco: Monaco
  prompt: string
  original: string
  modified: string
  /** The answer is still streaming in: Accept waits for its end. */
  generating: boolean
  onAccept: () => void
  onReject: () => void
}

/**
 * The suggested change as a Monaco diff over the editor (the SQL editor spec's "AI diff" state): the text before, and
 * the text with the selection replaced. Accept (Ctrl/Cmd+Enter) or Reject (Escape).
 */
export function AiDiffView({ monaco, prompt, original, modified, generating, onAccept, onReject }: AiDiffViewProps) {
  const host = useRef<HTMLDivElement>(null)
  const diff = useRef<DiffEditor | null>(null)
  const latest = useRef({ onAccept, onReject, modified })
  useLayoutEffect(() => {
    latest.current = { onAccept, onReject, modified }
  })

  // One diff editor per review: its models hold the text before and after.
  useEffect(() => {
    if (!host.current) return
    const before = monaco.editor.createModel(original, 'pgsql')
    const after = monaco.editor.createModel(latest.current.modified, 'pgsql')
    const editor = monaco.editor.createDiffEditor(host.current, {
      readOnly: true,
      originalEditable: false,
      // Side by side when there is room, inline in a narrow editor.
      renderSideBySide: true,
      useInlineViewWhenSpaceIsLimited: true,
      renderSideBySideInlineBreakpoint: 760,
      automaticLayout: true,
      fontSize: 13,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      wordWrap: 'on',
      diffWordWrap: 'on',
      renderOverviewRuler: false,
      hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 },
      padding: { top: 8 },
      fixedOverflowWidgets: true,
      originalAriaLabel: 'SQL before the AI suggestion',
      modifiedAriaLabel: 'SQL with the AI suggestion',
    })
    editor.setModel({ original: before, modified: after })
    const modifiedEditor = editor.getModifiedEditor()
    const actions = [
      modifiedEditor.addAction({
        id: 'stratum.ai.accept',
        label: 'Accept AI suggestion',
        keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
        run: () => latest.current.onAccept(),
      }),
      modifiedEditor.addAction({ id: 'stratum.ai.reject', label: 'Reject AI suggestion', keybindings: [monaco.KeyCode.Escape], run: () => latest.current.onReject() }),
    ]
    modifiedEditor.focus()
    diff.current = editor
    return () => {
      diff.current = null
      actions.forEach((action) => action.dispose())
      // Monaco computes the diff in its worker; models disposed before the answer make it report 'no diff result
      // available'. So the editor and its models go once the diff in flight is through (5 s at most).
      const release = () => {
        editor.dispose()
        before.dispose()
        after.dispose()
      }
      // waitForDiff is on the diff editor widget, not in the standalone editor's declared type.
      const pending = (editor as DiffEditor & { waitForDiff?: () => Promise<void> }).waitForDiff?.() ?? Promise.resolve()
      void Promise.race([pending, new Promise((resolve) => setTimeout(resolve, 5000))]).finally(release)
    }
  }, [monaco, original])

  // Streamed text grows the suggestion in place, without resetting the view.
  useEffect(() => {
    const model = diff.current?.getModel()?.modified
    if (!model) return
    const edit = minimalEdit(model.getValue(), modified)
    if (!edit) return
    const range = monaco.Range.fromPositions(model.getPositionAt(edit.start), model.getPositionAt(edit.end))
    model.applyEdits([{ range, text: edit.text }])
  }, [monaco, modified])

  useEffect(() => {
    if (!generating) diff.current?.getModifiedEditor().focus()
  }, [generating])

  // The same keys on the buttons and the bar (Monaco handles them inside the diff editor).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented) return
    if (event.key === 'Escape') {
      event.preventDefault()
      onReject()
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      onAccept()
    }
  }

  return (
    <div className="ai-diff" data-testid="ai-diff" role="region" aria-label="AI suggestion" onKeyDown={onKeyDown}>
      <div className="ai-diff-bar">
        <Sparkles className="ai-prompt-icon" size={15} aria-hidden="true" />
        <span className="ai-diff-prompt" title={prompt}>
          {prompt}
        </span>
        {generating ? (
          <span className="ai-prompt-status" role="status">
            <Spinner size={14} /> Generating…
          </span>
        ) : null}
        <div className="ai-diff-actions">
          <Button size="sm" variant="secondary" icon={<X size={14} aria-hidden="true" />} onClick={onReject} aria-keyshortcuts="Escape">
            Reject <kbd aria-hidden="true">Esc</kbd>
          </Button>
          <Button size="sm" variant="primary" icon={<Check size={14} aria-hidden="true" />} disabled={generating} onClick={onAccept} aria-keyshortcuts="Control+Enter Meta+Enter">
            Accept <kbd aria-hidden="true">{modKeyLabel}</kbd>
            <kbd aria-hidden="true">↵</kbd>
          </Button>
        </div>
      </div>
      <div ref={host} className="ai-diff-editor" />
    </div>
  )
}
