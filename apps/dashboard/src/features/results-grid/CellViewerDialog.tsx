import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { CopyButton } from '../../components/ui/CopyButton'
import { Dialog } from '../../components/ui/Dialog'
import { Markdown } from './Markdown'
import { displayValue } from './values'

export interface ViewedCell {
  column: string
  value: unknown
}

/** JSON (objects, or strings holding JSON) pretty-printed; anything else as it reads. */
function prettyText(value: unknown): { text: string; json: boolean } {
  if (value !== null && typeof value === 'object') return { text: JSON.stringify(value, null, 2), json: true }
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    try {
      return { text: JSON.stringify(JSON.parse(value), null, 2), json: true }
    } catch {
      // Not JSON after all.
    }
  }
  return { text: displayValue(value), json: false }
}

/** The cell viewer (project-shell spec): the whole value, with a view/markdown toggle for text. */
export function CellViewerDialog({ cell, onClose }: { cell: ViewedCell | null; onClose: () => void }) {
  const [mode, setMode] = useState<'view' | 'markdown'>('view')
  const pretty = cell ? prettyText(cell.value) : { text: '', json: false }
  const isText = typeof cell?.value === 'string' && !pretty.json
  return (
    <Dialog
      open={cell !== null}
      onOpenChange={(open) => {
        if (!open) {
          setMode('view')
          onClose()
        }
      }}
      title={`Viewing cell details on column: ${cell?.column ?? ''}`}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <div className="cell-viewer-toolbar">
        {isText ? (
          <div className="segmented" role="group" aria-label="Display">
            <button type="button" aria-pressed={mode === 'view'} onClick={() => setMode('view')}>
              View
            </button>
            <button type="button" aria-pressed={mode === 'markdown'} onClick={() => setMode('markdown')}>
              Markdown
            </button>
          </div>
        ) : (
          <span className="cell-viewer-kind">{pretty.json ? 'JSON' : cell?.value === null ? 'NULL' : typeof cell?.value}</span>
        )}
        <CopyButton value={cell ? (typeof cell.value === 'string' ? cell.value : pretty.text) : ''} what="cell value" />
      </div>
      {isText && mode === 'markdown' ? (
        <div className="cell-viewer-content">
          <Markdown source={String(cell?.value ?? '')} />
        </div>
      ) : (
        <pre className="cell-viewer-content cell-viewer-pre" tabIndex={0}>
          {pretty.text}
        </pre>
      )}
    </Dialog>
  )
}
