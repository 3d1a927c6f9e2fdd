import { Sparkles, SquareTerminal, X } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { useParams } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { LoadingState } from '../../components/ui/Spinner'
import { modKeyLabel } from '../../lib/platform'

/** Loaded when first opened: project pages do not pay for the editor panel up front. */
const SqlPanel = lazy(() => import('../sql-panel/SqlPanel').then((module) => ({ default: module.SqlPanel })))

export type RightPanelKind = 'assistant' | 'editor'

const HEADER: Record<RightPanelKind, { title: string; closeLabel: string }> = {
  assistant: { title: 'AI assistant', closeLabel: 'Close AI assistant' },
  editor: { title: 'SQL editor panel', closeLabel: 'Close editor panel' },
}

interface SidePanelProps {
  kind: RightPanelKind
  onClose: () => void
}

/** The right panel: holds either the assistant (a placeholder for now) or the SQL editor panel. */
export function SidePanel({ kind, onClose }: SidePanelProps) {
  const { ref = '' } = useParams()
  const header = HEADER[kind]
  const Icon = kind === 'assistant' ? Sparkles : SquareTerminal
  return (
    <aside className="side-panel" aria-label={header.title} data-testid={`${kind}-panel`}>
      <div className="side-panel-header">
        <Icon size={16} aria-hidden="true" />
        <h2 className="side-panel-title">{header.title}</h2>
        <span className="spacer" />
        <IconButton size="sm" label={header.closeLabel} icon={<X size={16} aria-hidden="true" />} onClick={onClose} />
      </div>
      {kind === 'editor' ? (
        <Suspense fallback={<LoadingState label="Loading the editor panel…" />}>
          <SqlPanel key={ref} projectRef={ref} />
        </Suspense>
      ) : (
        <AssistantPlaceholder />
      )}
    </aside>
  )
}

function AssistantPlaceholder() {
  return (
    <div className="side-panel-body">
      <div className="side-panel-icon" aria-hidden="true">
        <Sparkles size={22} />
      </div>
      <p>
        The AI assistant arrives in a later release. It will answer questions about this project, write and explain SQL, and run queries only after you
        approve them.
      </p>
      <p className="muted">Nothing here works yet: there is no model connected to this Stratum server.</p>
      <p className="faint side-panel-shortcut">
        <kbd>{modKeyLabel}</kbd> <kbd>I</kbd> opens and closes this panel.
      </p>
    </div>
  )
}
