import { SquareTerminal, X } from 'lucide-react'
import { useParams } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { LoadingState } from '../../components/ui/Spinner'
import { lazyComponent } from '../../lib/lazyComponent'

/** Loaded when first opened: project pages do not pay for the editor panel up front. */
const SqlPanel = lazyComponent(() => import('../sql-panel').then((module) => module.SqlPanel), <LoadingState label="Loading the editor panel…" />)
const AssistantPanel = lazyComponent(() => import('../assistant').then((module) => module.AssistantPanel), <LoadingState label="Loading the assistant…" />)

export type RightPanelKind = 'assistant' | 'editor'

const HEADER = { title: 'SQL editor panel', closeLabel: 'Close editor panel' }

interface SidePanelProps {
  kind: RightPanelKind
  onClose: () => void
}

/** The right panel: the AI assistant or the SQL editor panel, each loaded when first opened. */
export function SidePanel({ kind, onClose }: SidePanelProps) {
  const { ref = '' } = useParams()
  if (kind === 'assistant') return <AssistantPanel key={ref} onClose={onClose} />
  const header = HEADER
  return (
    <aside className="side-panel" aria-label={header.title} data-testid="editor-panel">
      <div className="side-panel-header">
        <SquareTerminal size={16} aria-hidden="true" />
        <h2 className="side-panel-title">{header.title}</h2>
        <span className="spacer" />
        <IconButton size="sm" label={header.closeLabel} icon={<X size={16} aria-hidden="true" />} onClick={onClose} />
      </div>
      <SqlPanel key={ref} projectRef={ref} />
    </aside>
  )
}
