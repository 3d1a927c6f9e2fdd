import { AI_FAILED_COMPLETION, AI_SQL_MAX_LENGTH, aiFailedToGenerate } from '@stratum/contracts'
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { AiCompletionError, isAbortError, streamSqlCompletion } from '../../../data/ai/streamSqlCompletion'
import type { Monaco } from '../monaco'
import { applyCompletion, cleanCompletion, type AppliedCompletion, type CompletionParts } from './applyCompletion'

type Editor = ReturnType<Monaco['editor']['create']>
type Decorations = ReturnType<Editor['createDecorationsCollection']>

/**
 * closed; prompt (the box is open for input); generating (the request is out: the box shows
 * progress, then the diff shows the partial text); review (the diff with Accept and Reject).
 */
export type InlineAiPhase = 'closed' | 'prompt' | 'generating' | 'review'

export interface InlineAiState {
  phase: InlineAiPhase
  /** The line the prompt box sits above (the first line of the selection, or the cursor's). */
  line: number
  /** Counts Cmd/Ctrl+K presses, so that the prompt box takes the focus again on each. */
  opened: number
  prompt: string
  /** The prompt is about selected text (else about the cursor position). */
  hasSelection: boolean
  error: string | null
  /** The document when the prompt was sent. */
  original: string
  /** The document with the completion in place, as far as it has arrived. */
  applied: AppliedCompletion | null
}

const CLOSED: InlineAiState = { phase: 'closed', line: 1, opened: 0, prompt: '', hasSelection: false, error: null, original: '', applied: null }

interface Request extends Pick<CompletionParts, 'before' | 'selection' | 'after'> {
  id: number
  controller: AbortController
}

/**
 * The inline AI edit of the SQL editor (the SQL editor spec's inline AI prompt): Cmd/Ctrl+K in the editor opens a prompt at
 * the selection; the answer streams into a diff; Accept puts it into the editor as one undoable
 * edit (so the usual draft save follows), Reject leaves the text as it was.
 */
/** The editor action behind Cmd/Ctrl+K, also run by the toolbar's "Edit with AI" button. */
export const INLINE_AI_EDIT_ACTION = 'stratum.ai.inline-edit'

export function useInlineAiEdit({ editor, monaco, projectRef }: { editor: Editor; monaco: Monaco; projectRef: string }) {
  const [state, setState] = useState<InlineAiState>(CLOSED)
  const target = useRef<Decorations | null>(null)
  const request = useRef<Request | null>(null)
  const nextId = useRef(0)
  const current = useRef(state)
  useLayoutEffect(() => {
    current.current = state
  })

  const stopRequest = useCallback(() => {
    request.current?.controller.abort()
    request.current = null
  }, [])

  /** The editor takes the focus back once the prompt box or the diff is gone (see the effect below). */
  const refocusOnClose = useRef(false)
  const close = useCallback(
    (focusEditor = true) => {
      stopRequest()
      target.current?.clear()
      target.current = null
      setState((s) => ({ ...CLOSED, opened: s.opened }))
      if (focusEditor) editor.focus()
      refocusOnClose.current = focusEditor
    },
    [editor, stopRequest],
  )
  // The diff's own editor keeps the focus until React removes it, which can be after close() ran (Escape handled
  // inside the diff): focused again in the commit that removes it (a layout effect, before the next key can arrive),
  // the editor does not lose its keys to the page's body.
  useLayoutEffect(() => {
    if (state.phase !== 'closed' || !refocusOnClose.current) return
    refocusOnClose.current = false
    editor.focus()
  }, [state.phase, editor])

  const open = useCallback(() => {
    const phase = current.current.phase
    if (phase === 'generating' || phase === 'review') return
    const selection = editor.getSelection()
    if (!selection || !editor.getModel() || editor.getOption(monaco.editor.EditorOption.readOnly)) return
    target.current?.clear()
    // Marks the selected text while the prompt is open, and follows it through edits.
    target.current = editor.createDecorationsCollection([
      { range: selection, options: { className: 'ai-edit-target', stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges } },
    ])
    setState((s) => ({
      ...CLOSED,
      phase: 'prompt',
      line: selection.startLineNumber,
      opened: s.opened + 1,
      // The last prompt stays for another try at the same place.
      prompt: s.phase === 'prompt' ? s.prompt : '',
      hasSelection: !selection.isEmpty(),
    }))
  }, [editor, monaco])

  useEffect(() => {
    const action = editor.addAction({
      id: INLINE_AI_EDIT_ACTION,
      label: 'Edit with AI',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyK],
      run: open,
    })
    return () => action.dispose()
  }, [editor, monaco, open])

  // The prompt box follows its line through edits made while it is open.
  useEffect(() => {
    const moved = editor.onDidChangeModelContent(() => {
      const line = target.current?.getRange(0)?.startLineNumber
      if (line !== undefined) setState((s) => (s.phase !== 'closed' && s.line !== line ? { ...s, line } : s))
    })
    return () => moved.dispose()
  }, [editor])

  // Leaving the snippet (the editor unmounts) stops a running request.
  useEffect(() => () => request.current?.controller.abort(), [])

  const submit = useCallback(
    async (prompt: string) => {
      const model = editor.getModel()
      const range = target.current?.getRange(0) ?? editor.getSelection()
      if (!model || !range || !prompt.trim() || current.current.phase !== 'prompt') return
      stopRequest()
      const original = model.getValue()
      const start = model.getOffsetAt(range.getStartPosition())
      const end = model.getOffsetAt(range.getEndPosition())
      const mine: Request = {
        id: ++nextId.current,
        controller: new AbortController(),
        before: original.slice(0, start),
        selection: original.slice(start, end),
        after: original.slice(end),
      }
      request.current = mine
      const settle = (change: (s: InlineAiState) => InlineAiState) => {
        if (request.current === mine) setState(change)
      }
      setState((s) => ({ ...s, phase: 'generating', prompt, error: null, original, applied: null }))
      const apply = (text: string) => applyCompletion({ before: mine.before, selection: mine.selection, after: mine.after, completion: text })
      try {
        const text = await streamSqlCompletion(
          {
            projectRef,
            completionMetadata: {
              // The model gets as much context as the contract allows, nearest the cursor first.
              textBeforeCursor: mine.before.slice(-AI_SQL_MAX_LENGTH),
              textAfterCursor: mine.after.slice(0, AI_SQL_MAX_LENGTH),
              language: 'pgsql',
              prompt,
              selection: mine.selection,
            },
          },
          {
            signal: mine.controller.signal,
            onText: (partial) => {
              if (cleanCompletion(partial)) settle((s) => ({ ...s, applied: apply(partial) }))
            },
          },
        )
        if (!cleanCompletion(text)) settle((s) => ({ ...s, phase: 'prompt', applied: null, error: AI_FAILED_COMPLETION }))
        else settle((s) => ({ ...s, phase: 'review', applied: apply(text) }))
      } catch (error) {
        if (isAbortError(error)) return
        const message = error instanceof AiCompletionError ? error.message : aiFailedToGenerate(error instanceof Error ? error.message : String(error))
        settle((s) => ({ ...s, phase: 'prompt', applied: null, error: message }))
      } finally {
        if (request.current === mine) request.current = null
      }
    },
    [editor, projectRef, stopRequest],
  )

  /** Stops a request that is still out and goes back to the prompt. */
  const stop = useCallback(() => {
    stopRequest()
    setState((s) => (s.phase === 'generating' ? { ...s, phase: 'prompt', applied: null } : s))
  }, [stopRequest])

  const accept = useCallback(() => {
    const { phase, applied, original } = current.current
    const model = editor.getModel()
    if (phase !== 'review' || !applied || !model) return
    // The selection as it was when the prompt was sent; the whole text if it changed since.
    const unchanged = model.getValue() === original
    const replaced = unchanged
      ? monaco.Range.fromPositions(model.getPositionAt(applied.start), model.getPositionAt(original.length - (applied.text.length - applied.end)))
      : model.getFullModelRange()
    const text = unchanged ? applied.inserted : applied.text
    editor.pushUndoStop()
    editor.executeEdits('ai-inline-edit', [{ range: replaced, text, forceMoveMarkers: true }])
    editor.pushUndoStop()
    const inserted = monaco.Range.fromPositions(model.getPositionAt(applied.start), model.getPositionAt(applied.end))
    close(true)
    editor.setSelection(unchanged ? inserted : model.getFullModelRange().collapseToEnd())
    editor.revealRangeInCenterIfOutsideViewport(inserted)
  }, [close, editor, monaco])

  const reject = useCallback(() => close(), [close])

  return { state, open, submit, stop, accept, reject }
}
