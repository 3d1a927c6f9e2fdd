import { useAiKeyCheck } from '../../../data/ai/useAiKeyCheck'
import { errorMessage } from '../../../data/api'
import type { Monaco } from '../monaco'
import { AiDiffView } from './AiDiffView'
import { InlinePrompt } from './InlinePrompt'
import { useInlineAiEdit } from './useInlineAiEdit'
import './ai.css'

type Editor = ReturnType<Monaco['editor']['create']>

/** Cmd/Ctrl+K in the SQL editor: the prompt box, then the diff to accept or reject. */
export function InlineAiEdit({ editor, monaco, projectRef }: { editor: Editor; monaco: Monaco; projectRef: string }) {
  const { state, submit, stop, accept, reject } = useInlineAiEdit({ editor, monaco, projectRef })
  const open = state.phase !== 'closed'
  const keyCheck = useAiKeyCheck()
  const generating = state.phase === 'generating'

  if (!open) return null
  if (state.applied) {
    return (
      <AiDiffView
        monaco={monaco}
        prompt={state.prompt}
        original={state.original}
        modified={state.applied.text}
        generating={generating}
        onAccept={accept}
        onReject={reject}
      />
    )
  }
  return (
    <div className="ai-layer">
      <InlinePrompt
        key={state.opened}
        editor={editor}
        line={state.line}
        initialPrompt={state.prompt}
        hasSelection={state.hasSelection}
        generating={generating}
        error={state.error}
        keyCheck={{ data: keyCheck.data, loading: keyCheck.isPending, error: keyCheck.isError ? errorMessage(keyCheck.error) : undefined }}
        onSubmit={(prompt) => void submit(prompt)}
        onStop={stop}
        onClose={reject}
      />
    </div>
  )
}
